import type { ComponentType } from 'react';
import type { RouteName } from './routes';

/** The screens of one area (one chunk), by route name. */
export type ScreenMap = Partial<Record<RouteName, ComponentType>>;
