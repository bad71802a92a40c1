import { defineMessages, useIntl } from 'react-intl';
import './base.css';
import './LanguageSelector.css';

const messages = defineMessages({
  label: { id: 'components.languageSelector.label', defaultMessage: 'Language' },
});

export type LanguageCode = 'es' | 'en';

// Each language is named in itself (an endonym), whatever the current language: these are not translated.
const LANGUAGES: { code: LanguageCode; short: string; name: string }[] = [
  { code: 'es', short: 'ES', name: 'Español' },
  { code: 'en', short: 'EN', name: 'English' },
];

export interface LanguageSelectorProps {
  locale: LanguageCode;
  onChange: (locale: LanguageCode) => void;
}

/** ES / EN: two toggle buttons, the current one pressed. */
export function LanguageSelector({ locale, onChange }: LanguageSelectorProps) {
  const intl = useIntl();
  return (
    <div role="group" aria-label={intl.formatMessage(messages.label)} className="dv-languages">
      {LANGUAGES.map(({ code, short, name }) => (
        <button
          key={code}
          type="button"
          lang={code}
          aria-pressed={locale === code}
          className="dv-languages__button"
          onClick={() => {
            if (locale !== code) onChange(code);
          }}
        >
          {/* The name says what the button shows first (WCAG 2.5.3: "ES" works for voice control), then the language. */}
          {short}
          <span className="dv-visually-hidden"> {name}</span>
        </button>
      ))}
    </div>
  );
}
