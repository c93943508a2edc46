/** The frame of the sign-in, sign-up and password screens, and the fields they share. */
import type { ComponentProps, ReactNode } from "react";
import { TextField } from "../../components/field.tsx";

type TextFieldProps = ComponentProps<typeof TextField>;

/** The frame of every sign-in screen: one centred card, readable at 375 px and on a wide screen. */
export function AuthCard({
  title,
  intro,
  children,
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="mx-auto w-full max-w-md py-4 sm:py-10" aria-labelledby="auth-title">
      <div className="rounded-2xl border border-stone-200 bg-white p-6 shadow-sm sm:p-8 dark:border-stone-800 dark:bg-stone-900">
        <h1 id="auth-title" className="font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">
          {title}
        </h1>
        {intro && <div className="mt-2 text-stone-600 dark:text-stone-300">{intro}</div>}
        <div className="mt-6 space-y-5">{children}</div>
      </div>
    </section>
  );
}

/** The account's e-mail, as every sign-in, sign-up and link form asks for it. */
export function EmailField(props: Omit<TextFieldProps, "label" | "name" | "type">) {
  return <TextField label="E-mail" name="email" type="email" autoComplete="email" required {...props} />;
}

/** A password being chosen: the shop takes 8 to 128 characters (what Better Auth is configured to accept). */
export function NewPasswordField(props: Omit<TextFieldProps, "type">) {
  return (
    <TextField
      type="password"
      autoComplete="new-password"
      required
      minLength={8}
      maxLength={128}
      {...props}
    />
  );
}

/** A new password typed twice, side by side where there is room; `names` are the two fields' form names. */
export function NewPasswordPair({ names, className }: { names: [string, string]; className?: string }) {
  return (
    <div className={className}>
      <NewPasswordField label="New password" name={names[0]} hint="8 to 128 characters." />
      <NewPasswordField label="New password again" name={names[1]} />
    </div>
  );
}
