/** What an action on an admin screen came to: said as a status, or as an alert when it failed. */
export type ResultMessageState = { kind: "ok" | "error"; text: string };

/** The result of the last action, in a tinted box a screen reader reads out; nothing while there is none. */
export function ResultMessage({ message }: { message: ResultMessageState | null }) {
  if (!message) return null;
  return (
    <p
      role={message.kind === "error" ? "alert" : "status"}
      className={`mt-3 rounded-md p-3 text-sm ${
        message.kind === "error"
          ? "bg-red-50 text-red-800 dark:bg-red-900/30 dark:text-red-200"
          : "bg-brand-50 text-brand-800 dark:bg-brand-900/50 dark:text-brand-100"
      }`}
    >
      {message.text}
    </p>
  );
}
