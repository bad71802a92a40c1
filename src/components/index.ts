export { GlobalModal, type GlobalModalProps } from './GlobalModal';
export { HelpPanel, type HelpPanelProps } from './HelpPanel';
export { LanguageSelector, type LanguageCode, type LanguageSelectorProps } from './LanguageSelector';
export { Layout, type LayoutProps } from './Layout';
export { LoadingButton, INVALID_COLOR_MESSAGE, type ButtonColor, type LoadingButtonProps } from './LoadingButton';
export { Modal, type ModalProps } from './Modal';
export { PasswordInput, type PasswordInputProps } from './PasswordInput';
export { TextInput, type TextInputProps } from './TextInput';
export { Toast, type ToastKind, type ToastProps } from './Toast';
