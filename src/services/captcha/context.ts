import { createContext } from 'react';
import type { CaptchaClient } from './index';

export const CaptchaContext = createContext<CaptchaClient | null>(null);
