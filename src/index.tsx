import { startApp } from './app/startup';
import './styles/global.css';

void startApp(document.getElementById('app')!);
