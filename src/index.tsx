import { startApp } from './app/startup';
import './styles/fonts.css';
import './styles/global.css';

void startApp(document.getElementById('app')!);
