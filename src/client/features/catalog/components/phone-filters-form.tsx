import { afterNextPaint } from '@client/lib/after-paint';
import { storageLabel } from '@client/lib/format';
import { CATEGORIES, CONDITION_OPTIONS, RAM_OPTIONS, STORAGE_OPTIONS } from '@shared/constants';
import { type ChangeEvent, memo, type ReactNode, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import {
  activeFilterCount,
  BATTERY_HEALTH_CHOICES,
  type FilterScope,
  type PhoneFilters,
  TEXT_FILTERS,
  type TextFilter,
} from '../phone-filters';
import { SEARCH_TEXT } from '../texts';
import type { ApplyFilters } from '../use-phone-filters';

/** How long typing pauses before a price, battery or location applies. */
export const TYPING_PAUSE_MS = 600;

type Texts = Record<TextFilter, string>;
const textsOf = (filters: PhoneFilters): Texts =>
  Object.fromEntries(TEXT_FILTERS.map((key) => [key, filters[key]])) as Texts;
const sameTexts = (a: Texts, b: Texts) => TEXT_FILTERS.every((key) => a[key] === b[key]);

type MultiKey = 'brand' | 'ram' | 'storage' | 'condition';

/**
 * A box's tick as the tap leaves it, before the list's filters have it: the tap re-renders the
 * box's own group and nothing else, and its change applies after that frame has painted (the
 * page, the other copy of the form and the list follow; issue 36, decision 068). What the
 * filters say again, once they change, is what shows. A change still waiting when the form goes
 * away is called off.
 */
function useTicks<T>(from: T) {
  const [ticks, setTicks] = useState<{ from: T; on: ReadonlyMap<string, boolean> }>(() => ({
    from,
    on: new Map(),
  }));
  const waiting = useRef(new Set<() => void>());
  useEffect(() => {
    const pending = waiting.current;
    return () => {
      for (const cancel of pending) cancel();
    };
  }, []);
  const on = ticks.from === from ? ticks.on : NO_TICKS;
  const tick = (value: string, checked: boolean, change: () => void) => {
    setTicks({ from, on: new Map(on).set(value, checked) });
    const cancel = afterNextPaint(() => {
      waiting.current.delete(cancel);
      change();
    });
    waiting.current.add(cancel);
  };
  return { on, tick };
}
const NO_TICKS: ReadonlyMap<string, boolean> = new Map();

function CheckGroup<K extends MultiKey>({
  name,
  legend,
  options,
  filters,
  onToggle,
}: {
  name: K;
  legend: string;
  options: readonly { value: PhoneFilters[K][number]; label: string }[];
  filters: PhoneFilters;
  onToggle: (name: K, value: PhoneFilters[K][number], on: boolean) => void;
}) {
  const chosen: readonly string[] = filters[name];
  const ticks = useTicks(chosen);
  return (
    <fieldset className="fieldset">
      <legend className="fieldset-legend">{legend}</legend>
      <div className="grid grid-cols-[repeat(auto-fill,minmax(6.5rem,1fr))] gap-x-3">
        {options.map(({ value, label }) => (
          <label key={value} className="label cursor-pointer gap-2 py-1 text-base-content">
            <input
              type="checkbox"
              className="checkbox checkbox-sm"
              name={name}
              value={value}
              checked={ticks.on.get(value) ?? chosen.includes(value)}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                ticks.tick(value, on, () => onToggle(name, value, on));
              }}
            />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function Flag({
  legend,
  label,
  name,
  checked,
  onChange,
}: {
  legend: string;
  label: string;
  name: string;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  const ticks = useTicks(checked);
  return (
    <fieldset className="fieldset">
      <legend className="fieldset-legend">{legend}</legend>
      <label className="label cursor-pointer gap-2 py-1 text-base-content">
        <input
          type="checkbox"
          className="checkbox checkbox-sm"
          name={name}
          value="true"
          checked={ticks.on.get(name) ?? checked}
          onChange={(e) => {
            const on = e.currentTarget.checked;
            ticks.tick(name, on, () => onChange(on));
          }}
        />
        {label}
      </label>
    </fieldset>
  );
}

function TextInput({
  id,
  label,
  children,
}: {
  id: string;
  label: string;
  children: (id: string) => ReactNode;
}) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm">
        {label}
      </label>
      {children(id)}
    </div>
  );
}

type FormProps = {
  id: string;
  scope: FilterScope;
  filters: PhoneFilters;
  apply: ApplyFilters;
  /** Where "Clear filters" goes. */
  clearTo: { pathname: string; search: string };
  /** In the phone's drawer: after "Show phones" it closes, and that button stays in view. */
  onDone?: () => void;
};

/**
 * The filters of a list of phones: boxes apply as they are ticked, typed fields a moment after
 * typing stops (or on Enter, or on leaving the field). The URL is the state; the form shows it,
 * and what is typed until it applies. Without JavaScript it is a plain GET form of the same
 * parameters.
 */
export const PhoneFiltersForm = memo(
  FiltersForm,
  // Its props are the same unless one of these changed (`apply` is always the same function):
  // a copy of the form whose filters have not changed is not made again (issue 36).
  (a, b) =>
    a.id === b.id &&
    a.filters === b.filters &&
    a.onDone === b.onDone &&
    a.scope.brand === b.scope.brand &&
    a.scope.includeSold === b.scope.includeSold &&
    a.clearTo.pathname === b.clearTo.pathname &&
    a.clearTo.search === b.clearTo.search,
);

function FiltersForm({ id, scope, filters, apply, clearTo, onDone }: FormProps) {
  const fromUrl = textsOf(filters);
  const [drafts, setDrafts] = useState(fromUrl);
  const [shown, setShown] = useState(fromUrl);
  if (!sameTexts(shown, fromUrl)) {
    // The URL changed (a change applied, back or forward): each field shows its value, unless
    // what is typed there means the same ('450 ' is 450).
    setShown(fromUrl);
    setDrafts(
      Object.fromEntries(
        TEXT_FILTERS.map((key) => [
          key,
          drafts[key].trim() === fromUrl[key] ? drafts[key] : fromUrl[key],
        ]),
      ) as Texts,
    );
  }

  // The timers' view of the latest filters and drafts (they fire after renders).
  const latest = useRef({ filters, drafts });
  useEffect(() => {
    latest.current = { filters, drafts };
  });
  const timers = useRef(new Map<TextFilter, ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
    };
  }, []);
  /** The field being typed into whose text was applied last: its next step replaces that one. */
  const typing = useRef<TextFilter | null>(null);

  const commit = (values: Partial<Texts>, replace: boolean) => {
    const current = latest.current.filters;
    const next = { ...current };
    let changed = false;
    for (const key of TEXT_FILTERS) {
      const value = values[key];
      if (value === undefined) continue;
      clearTimeout(timers.current.get(key));
      timers.current.delete(key);
      if (current[key] === value.trim()) continue;
      next[key] = value.trim();
      changed = true;
    }
    if (changed) apply(next, { replace });
  };

  const onType = (key: TextFilter) => (e: ChangeEvent<HTMLInputElement>) => {
    const value = e.currentTarget.value;
    setDrafts((d) => ({ ...d, [key]: value }));
    clearTimeout(timers.current.get(key));
    // A number field holding what is not yet a number ('1e') waits for more.
    if (e.currentTarget.validity.badInput) return;
    timers.current.set(
      key,
      setTimeout(() => {
        // Back or forward may have changed the field meanwhile.
        if (latest.current.drafts[key] !== value) return;
        commit({ [key]: value }, typing.current === key);
        typing.current = key;
      }, TYPING_PAUSE_MS),
    );
  };
  const onLeave = (key: TextFilter) => () => {
    if (timers.current.has(key)) commit({ [key]: drafts[key] }, typing.current === key);
    typing.current = null;
  };

  // Ticks apply after their frame (`useTicks`): until the filters have one, the next builds on it.
  const ticked = useRef<{ from: PhoneFilters; next: PhoneFilters } | null>(null);
  const applyTick = (change: (base: PhoneFilters) => PhoneFilters) => {
    typing.current = null;
    const base = ticked.current?.from === filters ? ticked.current.next : filters;
    const next = change(base);
    ticked.current = { from: filters, next };
    apply(next);
  };
  const onToggle = <K extends MultiKey>(name: K, value: PhoneFilters[K][number], on: boolean) =>
    applyTick((base) => {
      const list: readonly string[] = base[name];
      return { ...base, [name]: on ? [...list, value] : list.filter((v) => v !== value) };
    });
  const onFlag = (name: 'verified' | 'includeSold') => (on: boolean) =>
    applyTick((base) => ({ ...base, [name]: on }));

  const onHealth = (e: ChangeEvent<HTMLSelectElement>) => {
    typing.current = null;
    apply({ ...filters, minBatteryHealth: e.currentTarget.value });
  };
  // A link may name a bound the form does not offer (88): it is shown as one more choice.
  const healthChoices: string[] = [...BATTERY_HEALTH_CHOICES];
  if (filters.minBatteryHealth && !healthChoices.includes(filters.minBatteryHealth))
    healthChoices.push(filters.minBatteryHealth);
  healthChoices.sort((a, b) => Number(a) - Number(b));

  const textInput = (key: TextFilter, inputId: string, extra: Record<string, unknown>) => (
    <input
      id={inputId}
      name={key}
      className="input input-sm w-full"
      value={drafts[key]}
      onChange={onType(key)}
      onBlur={onLeave(key)}
      {...extra}
    />
  );
  const money = { type: 'number', min: 0, step: 0.01, inputMode: 'decimal' };
  const active = activeFilterCount(filters, scope);

  return (
    <form
      id={id}
      method="get"
      action={clearTo.pathname}
      aria-label={SEARCH_TEXT.filters}
      className="flex flex-col gap-1"
      onSubmit={(e) => {
        e.preventDefault();
        const changed = TEXT_FILTERS.filter((key) => drafts[key].trim() !== filters[key]);
        const replace = changed.length === 1 && changed[0] === typing.current;
        commit(drafts, replace);
        typing.current = null;
        onDone?.();
      }}
    >
      {/* Sent with the form when it is sent natively, before the page is interactive. */}
      {filters.q && <input type="hidden" name="q" value={filters.q} />}
      {!scope.brand && (
        <CheckGroup
          name="brand"
          legend={SEARCH_TEXT.brand}
          options={CATEGORIES.map((c) => ({ value: c.categoryId, label: c.name }))}
          filters={filters}
          onToggle={onToggle}
        />
      )}
      <fieldset className="fieldset">
        <legend className="fieldset-legend">{SEARCH_TEXT.price}</legend>
        <div className="grid grid-cols-2 gap-3">
          <TextInput id={`${id}-min-price`} label={SEARCH_TEXT.minPrice}>
            {(inputId) => textInput('minPrice', inputId, { ...money, placeholder: '0' })}
          </TextInput>
          <TextInput id={`${id}-max-price`} label={SEARCH_TEXT.maxPrice}>
            {(inputId) => textInput('maxPrice', inputId, { ...money, placeholder: 'Any' })}
          </TextInput>
        </div>
      </fieldset>
      <CheckGroup
        name="storage"
        legend={SEARCH_TEXT.storage}
        options={STORAGE_OPTIONS.map((s) => ({ value: s, label: storageLabel(s) }))}
        filters={filters}
        onToggle={onToggle}
      />
      <CheckGroup
        name="ram"
        legend={SEARCH_TEXT.ram}
        options={RAM_OPTIONS.map((r) => ({ value: r, label: r }))}
        filters={filters}
        onToggle={onToggle}
      />
      <CheckGroup
        name="condition"
        legend={SEARCH_TEXT.condition}
        options={CONDITION_OPTIONS.map((c) => ({ value: c, label: c }))}
        filters={filters}
        onToggle={onToggle}
      />
      <fieldset className="fieldset">
        <legend className="fieldset-legend">{SEARCH_TEXT.battery}</legend>
        <TextInput id={`${id}-min-battery`} label={SEARCH_TEXT.minBattery}>
          {(inputId) =>
            textInput('minBattery', inputId, {
              type: 'number',
              min: 1,
              step: 1,
              inputMode: 'numeric',
              placeholder: '4000',
            })
          }
        </TextInput>
        <TextInput id={`${id}-min-battery-health`} label={SEARCH_TEXT.minBatteryHealth}>
          {(inputId) => (
            <select
              id={inputId}
              name="minBatteryHealth"
              className="select select-sm w-full"
              value={filters.minBatteryHealth}
              onChange={onHealth}
            >
              <option value="">{SEARCH_TEXT.anyBatteryHealth}</option>
              {healthChoices.map((n) => (
                <option key={n} value={n}>
                  {SEARCH_TEXT.batteryHealthChoice(n)}
                </option>
              ))}
            </select>
          )}
        </TextInput>
      </fieldset>
      <fieldset className="fieldset">
        <legend className="fieldset-legend">{SEARCH_TEXT.location}</legend>
        <TextInput id={`${id}-location`} label={SEARCH_TEXT.locationPlaceholder}>
          {(inputId) =>
            textInput('location', inputId, { type: 'text', maxLength: 100, autoComplete: 'off' })
          }
        </TextInput>
      </fieldset>
      <Flag
        legend={SEARCH_TEXT.seller}
        label={SEARCH_TEXT.verified}
        name="verified"
        checked={filters.verified}
        onChange={onFlag('verified')}
      />
      <Flag
        legend={SEARCH_TEXT.status}
        label={SEARCH_TEXT.includeSold}
        name="includeSold"
        checked={filters.includeSold}
        onChange={onFlag('includeSold')}
      />
      <div
        className={`mt-3 flex flex-wrap items-center gap-3 ${onDone ? 'sticky bottom-0 bg-base-100 py-3' : ''}`}
      >
        <button type="submit" className="btn btn-primary btn-sm">
          {SEARCH_TEXT.apply}
        </button>
        {active > 0 && (
          <Link
            to={clearTo}
            preventScrollReset
            className="link text-sm"
            onClick={() => {
              for (const timer of timers.current.values()) clearTimeout(timer);
              timers.current.clear();
            }}
          >
            {SEARCH_TEXT.clear}
          </Link>
        )}
      </div>
    </form>
  );
}
