/**
 * The shop's form controls: Field puts a label, one control, its hint and its error together and wires
 * them (the control is named by the label and described by the hint and the error, and says it is invalid),
 * so no screen writes ids and aria attributes by hand.
 */
import {
  createContext,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useContext,
  useId,
} from "react";

// mt-1 spaces the control from a label above it, whether the label wraps it or stands before it.
export const controlClass =
  "mt-1 block w-full rounded-lg border border-stone-300 bg-white px-3 py-2.5 text-base text-stone-900 placeholder:text-stone-500 focus:border-brand-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600/40 aria-invalid:border-red-600 disabled:opacity-60 dark:border-stone-600 dark:bg-stone-950 dark:text-stone-100 dark:placeholder:text-stone-400 dark:aria-invalid:border-red-400";

export const labelClass = "block text-sm font-medium text-stone-800 dark:text-stone-200";

export const hintClass = "mt-1 text-sm text-stone-600 dark:text-stone-400";

export const errorTextClass = "mt-1 text-sm font-medium text-red-700 dark:text-red-400";

type ControlWiring = { id: string; "aria-describedby"?: string; "aria-invalid"?: true };

const FieldContext = createContext<ControlWiring | null>(null);

export type FieldProps = {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  /** The control's id; one is made up when not given. */
  id?: string;
  /** Announce the error the moment it appears: for errors that come back from the server after a save. */
  alert?: boolean;
  className?: string;
  children: ReactNode;
};

/** A label, the one Input, Select or Textarea inside it, and that control's hint and error. */
export function Field({ label, hint, error, id, alert, className, children }: FieldProps) {
  const generated = useId();
  const controlId = id ?? generated;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const wiring: ControlWiring = {
    id: controlId,
    "aria-describedby": [hintId, errorId].filter(Boolean).join(" ") || undefined,
    "aria-invalid": error ? true : undefined,
  };
  return (
    <div className={className}>
      <label htmlFor={controlId} className={labelClass}>
        {label}
      </label>
      <FieldContext.Provider value={wiring}>{children}</FieldContext.Provider>
      {hint && (
        <p id={hintId} className={hintClass}>
          {hint}
        </p>
      )}
      <FieldError id={errorId} error={error} alert={alert} />
    </div>
  );
}

/**
 * A control's error on its own, for controls laid out without a Field (a row of them, a table cell).
 * `alert` announces it the moment it appears, for an error that comes back from the server after a save.
 */
export function FieldError({ id, error, alert }: { id?: string; error?: string | null; alert?: boolean }) {
  if (!error) return null;
  return (
    <p id={id} role={alert ? "alert" : undefined} className={errorTextClass}>
      {error}
    </p>
  );
}

type Wirable = {
  id?: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean | "true" | "false" | "grammar" | "spelling";
};

/**
 * Inside a Field, the control takes its id and descriptions from it; the caller's own are kept as well.
 * Exported for the rare control with a look of its own (a colour swatch) that a Field still labels.
 */
export function useFieldWiring<P extends Wirable>(props: P): P {
  const wiring = useContext(FieldContext);
  if (!wiring) return props;
  return {
    ...props,
    id: props.id ?? wiring.id,
    "aria-describedby":
      [wiring["aria-describedby"], props["aria-describedby"]].filter(Boolean).join(" ") || undefined,
    "aria-invalid": wiring["aria-invalid"] ?? props["aria-invalid"],
  };
}

function withControlClass(className?: string) {
  return className ? `${controlClass} ${className}` : controlClass;
}

export function Input({ className, ...props }: InputHTMLAttributes<HTMLInputElement>) {
  return <input {...useFieldWiring(props)} className={withControlClass(className)} />;
}

export function Select({ className, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select {...useFieldWiring(props)} className={withControlClass(className)} />;
}

export function Textarea({ className, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea {...useFieldWiring(props)} className={withControlClass(className)} />;
}

/**
 * A Select's options, one for each value of a list, each shown by its label (or as the value itself when
 * there are no labels).
 */
export function Options<V extends string>({
  values,
  labels,
}: {
  values: readonly V[];
  labels?: Readonly<Record<V, string>>;
}) {
  return values.map((value) => (
    <option key={value} value={value}>
      {labels ? labels[value] : value}
    </option>
  ));
}

type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  hint?: ReactNode;
  error?: string | null;
};

/** A one-line text Field: the label, the input and its hint and error in one element. */
export function TextField({ label, hint, error, id, className, ...input }: TextFieldProps) {
  return (
    <Field label={label} hint={hint} error={error} id={id} className={className}>
      <Input {...input} />
    </Field>
  );
}
