import { useEffect, useState } from "react";
import { THEME_STORAGE_KEY as KEY } from "../../../common/theme-script.ts";
import { ChoiceCard } from "../../components/choice-card.tsx";

export type ThemeChoice = "light" | "dark" | "system";

export function readThemeChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(KEY);
    return stored === "light" || stored === "dark" ? stored : "system";
  } catch {
    return "system";
  }
}

export function applyThemeChoice(choice: ThemeChoice) {
  try {
    if (choice === "system") localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    // Storage blocked (private mode): the choice still applies to this page.
  }
  const dark = choice === "system" ? matchMedia("(prefers-color-scheme: dark)").matches : choice === "dark";
  document.documentElement.classList.toggle("dark", dark);
  document.documentElement.style.colorScheme = dark ? "dark" : "light";
}

const OPTIONS: { value: ThemeChoice; label: string; hint: string }[] = [
  { value: "light", label: "Light", hint: "Always light" },
  { value: "dark", label: "Dark", hint: "Always dark" },
  { value: "system", label: "System", hint: "Follow this device's setting" },
];

export function ThemePreference() {
  const [choice, setChoice] = useState<ThemeChoice>(readThemeChoice);

  // Following the system means following it when it changes, too.
  useEffect(() => {
    if (choice !== "system") return;
    const query = matchMedia("(prefers-color-scheme: dark)");
    const follow = () => applyThemeChoice("system");
    query.addEventListener("change", follow);
    return () => query.removeEventListener("change", follow);
  }, [choice]);

  return (
    <fieldset>
      <legend className="sr-only">Theme</legend>
      <div className="grid gap-3 sm:grid-cols-3">
        {OPTIONS.map((option) => (
          <ChoiceCard
            key={option.value}
            name="theme"
            value={option.value}
            checked={choice === option.value}
            onChange={() => {
              setChoice(option.value);
              applyThemeChoice(option.value);
            }}
          >
            <span className="block font-medium">{option.label}</span>
            <span className="block text-sm text-stone-600 dark:text-stone-300">{option.hint}</span>
          </ChoiceCard>
        ))}
      </div>
    </fieldset>
  );
}
