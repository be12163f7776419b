import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Button, type ButtonVariant } from './Button';
import { Icon } from './Icon';

export interface MenuItem {
  id: string;
  content: string;
  helpText?: string;
  suffix?: ReactNode;
  /** Shown but not chosen (its `helpText` says why); it stays reachable by the arrow keys. */
  disabled?: boolean;
  onAction: () => void;
}

export interface MenuSection {
  title: string;
  items: MenuItem[];
}

export interface ActionMenuProps {
  label: string;
  sections: MenuSection[];
  variant?: ButtonVariant;
  /** Shown instead of items when there are none. */
  emptyText?: string;
  /** Accessible name of the menu list. */
  menuLabel?: string;
  disabled?: boolean;
}

/**
 * A button that opens a menu of grouped actions (menu button pattern): arrows move, Home/End jump,
 * Escape closes and returns focus to the button, Tab and clicks outside close.
 */
export function ActionMenu({ label, sections, variant = 'primary', emptyText, menuLabel, disabled }: ActionMenuProps) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  const items = () => Array.from(rootRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

  useEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  function close(returnFocus: boolean) {
    setOpen(false);
    if (returnFocus) triggerRef.current?.focus();
  }

  function onMenuKeyDown(event: KeyboardEvent) {
    const all = items();
    const index = all.indexOf(document.activeElement as HTMLElement);
    const target =
      event.key === 'ArrowDown' ? all[(index + 1) % all.length]
      : event.key === 'ArrowUp' ? all[(index - 1 + all.length) % all.length]
      : event.key === 'Home' ? all[0]
      : event.key === 'End' ? all[all.length - 1]
      : undefined;
    if (target) {
      event.preventDefault();
      target.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close(true);
    } else if (event.key === 'Tab') {
      close(false);
    }
  }

  const empty = sections.every((section) => section.items.length === 0);
  return (
    <div className="action-menu" ref={rootRef}>
      <Button
        ref={triggerRef}
        variant={variant}
        disabled={disabled}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((value) => !value)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        {label} <Icon name="caret-down" />
      </Button>
      {open && (
        <div className="popover" id={menuId} role="menu" aria-label={menuLabel ?? label} onKeyDown={onMenuKeyDown}>
          {empty && <p className="popover__empty">{emptyText}</p>}
          {sections.map((section) =>
            section.items.length === 0 ? null : <MenuGroup key={section.title} section={section} onDone={() => close(false)} />,
          )}
        </div>
      )}
    </div>
  );
}

function MenuGroup({ section, onDone }: { section: MenuSection; onDone: () => void }) {
  const headingId = useId();
  return (
    <div role="group" aria-labelledby={headingId} className="popover__section">
      <p id={headingId} className="popover__heading">
        {section.title}
      </p>
      {section.items.map((item) => (
        <button
          key={item.id}
          type="button"
          role="menuitem"
          tabIndex={-1}
          className="popover__item"
          aria-disabled={item.disabled || undefined}
          onClick={() => {
            if (item.disabled) return;
            onDone();
            item.onAction();
          }}
        >
          <span className="popover__item-main">
            <span className="popover__item-title">{item.content}</span>
            {item.suffix}
          </span>
          {item.helpText && <span className="popover__item-help">{item.helpText}</span>}
        </button>
      ))}
    </div>
  );
}
