/** The frame of the sign-in, sign-up and password screens, and the fields they share. */
import type { ComponentProps, ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Button, buttonClass } from "../../components/button.tsx";
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

/**
 * A screen's one form, posted to its route's action, and the wide button that sends it and says so while
 * the answer is awaited.
 */
export function AuthForm({
  submit,
  pendingLabel,
  children,
}: {
  submit: string;
  pendingLabel: string;
  children: ReactNode;
}) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  return (
    <Form method="post" className="space-y-4">
      {children}
      <Button size="lg" block type="submit" pending={submitting} pendingLabel={pendingLabel}>
        {submit}
      </Button>
    </Form>
  );
}

/** The other way in, under the form: a question and its link ("New here? Create an account"). */
export function OtherWay({ question, to, children }: { question: string; to: string; children: ReactNode }) {
  return (
    <p className="text-center text-sm text-stone-600 dark:text-stone-300">
      {question}{" "}
      <Link to={to} className={buttonClass({ variant: "link" })}>
        {children}
      </Link>
    </p>
  );
}

/** The one way on from a card that has said its piece (a link sent, a link expired), centred below it. */
export function NextStepLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className={`block text-center ${buttonClass({ variant: "link" })}`}>
      {children}
    </Link>
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
