import type { ComponentProps } from "react";
import { TextField } from "../../components/field.tsx";

type TextFieldProps = ComponentProps<typeof TextField>;

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
