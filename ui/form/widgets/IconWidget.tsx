import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '@rjsf/utils';
import { useT } from '../../i18n';
import { labelId } from '../templates/FieldTemplate';
import { ICON_SET, isBuiltInIcon } from './icon-set';

/**
 * An icon (`"ui:widget": "icon"`): one of the built-in icons, or the URL of an image. The value is a
 * string either way: the icon's name (`"crown"`) or the URL.
 */
export function IconWidget({ id, htmlName, value, disabled, readonly, rawErrors, options, onChange }: WidgetProps) {
  const t = useT();
  const off = disabled || readonly;
  const url = typeof value === 'string' && value !== '' && !isBuiltInIcon(value) ? value : '';
  const urlId = `${id}__url`;
  const group = htmlName || id;
  return (
    <div className="icon-field">
      <div id={id} className="icon-field__options" role="radiogroup" aria-labelledby={labelId(id)} aria-describedby={ariaDescribedByIds(id)}>
        <label className="icon-field__option" title={t('form.icon.none')}>
          <input type="radio" className="visually-hidden" name={group} checked={!value} disabled={off} onChange={() => onChange(options.emptyValue)} />
          <span aria-hidden="true" className="icon-field__none">∅</span>
          <span className="visually-hidden">{t('form.icon.none')}</span>
        </label>
        {ICON_SET.map((icon) => (
          <label key={icon.name} className="icon-field__option" title={t(icon.label)}>
            <input type="radio" className="visually-hidden" name={group} value={icon.name} checked={value === icon.name} disabled={off} onChange={() => onChange(icon.name)} />
            <svg viewBox="0 0 24 24" width="20" height="20" fill="currentColor" aria-hidden="true">
              <path d={icon.path} />
            </svg>
            <span className="visually-hidden">{t(icon.label)}</span>
          </label>
        ))}
      </div>
      <div className="form-field">
        <label className="form-field__label" htmlFor={urlId}>
          {t('form.icon.url')}
        </label>
        <div className="icon-field__url">
          <div className={(rawErrors?.length ?? 0) > 0 ? 'input input--invalid' : 'input'}>
            <input
              id={urlId}
              type="url"
              className="input__field"
              value={url}
              placeholder="https://"
              disabled={disabled}
              readOnly={readonly}
              onChange={(event) => onChange(event.target.value.trim() === '' ? options.emptyValue : event.target.value.trim())}
            />
          </div>
          {url && <img className="icon-field__preview" src={url} alt="" />}
        </div>
      </div>
    </div>
  );
}
