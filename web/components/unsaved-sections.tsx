import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from "react";

/**
 * An admin screen with several sections, each with its own Save (settings and slides, the banner and the
 * seller's details, the COD rules and the reward for paying online), so that no save drops another's edit:
 * a section with changes not saved says so beside its Save, a save elsewhere says which sections still hold
 * changes, and leaving the screen (a link, a reload, closing the tab) asks first.
 */
type Registry = { dirty: string[]; setDirty: (change: (dirty: string[]) => string[]) => void };

const UnsavedContext = createContext<Registry | null>(null);

export function UnsavedSections({ children }: { children: ReactNode }) {
  const [dirty, setDirty] = useState<string[]>([]);
  useLeaveWarning(dirty);
  const registry = useMemo(() => ({ dirty, setDirty }), [dirty]);
  return <UnsavedContext.Provider value={registry}>{children}</UnsavedContext.Provider>;
}

/** "Shop settings", "Shop settings and Home page slides": the sections named as a sentence reads them. */
function named(sections: string[]) {
  return sections.length < 2
    ? (sections[0] ?? "")
    : `${sections.slice(0, -1).join(", ")} and ${sections.at(-1)}`;
}

export function leaveQuestion(sections: string[]) {
  return `${named(sections)} ${sections.length === 1 ? "has" : "have"} changes not saved. Leave this page and lose them?`;
}

/**
 * One section's part: `touch` when something in it is edited (a form's onChange catches typing and choosing;
 * buttons that change its list call it too), `saved` once its save succeeded, and `stillUnsaved`, the words to
 * add to its "saved" message while other sections still hold changes.
 */
export function useUnsavedSection(name: string) {
  const registry = useContext(UnsavedContext);
  const dirty = registry?.dirty ?? [];
  const others = dirty.filter((section) => section !== name);
  return {
    unsaved: dirty.includes(name),
    touch: () => registry?.setDirty((now) => (now.includes(name) ? now : [...now, name])),
    saved: () => registry?.setDirty((now) => now.filter((section) => section !== name)),
    stillUnsaved:
      others.length === 0
        ? ""
        : ` ${named(others)} still ${others.length === 1 ? "has" : "have"} changes not saved: save ${others.length === 1 ? "it" : "them"} too, or they are lost when you leave this page.`,
  };
}

/** What a section's form reports: what its save came to, or the failure for the screen to explain. */
export type SectionSaveProps = { onDone: (text: string) => void; onFailed: (caught: unknown) => void };

/**
 * A section's Save: `saving` while `send` runs; then the section is saved and `onDone` gets what `send` said,
 * with the sections still holding changes named after it, or `onFailed` gets the failure.
 */
export function useSectionSave(name: string, { onDone, onFailed }: SectionSaveProps) {
  const section = useUnsavedSection(name);
  const [saving, setSaving] = useState(false);
  async function save(send: () => Promise<string>) {
    setSaving(true);
    try {
      const said = await send();
      section.saved();
      onDone(`${said}${section.stillUnsaved}`);
    } catch (caught) {
      onFailed(caught);
    } finally {
      setSaving(false);
    }
  }
  return { section, saving, save };
}

/** "Not saved yet" beside a section's Save while it holds changes. */
export function NotSavedYet({ unsaved }: { unsaved: boolean }) {
  if (!unsaved) return null;
  return <span className="text-sm font-medium text-amber-800 dark:text-amber-300">Not saved yet</span>;
}

/**
 * While a section holds changes, a link that would leave the screen asks first (caught before the router's
 * own click handler, which leaves a prevented click alone), and so do a reload and closing the tab.
 */
function useLeaveWarning(dirty: string[]) {
  useEffect(() => {
    if (dirty.length === 0) return;
    const beforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    const click = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!link || link.getAttribute("target") === "_blank" || link.getAttribute("href")?.startsWith("#"))
        return;
      if (!window.confirm(leaveQuestion(dirty))) event.preventDefault();
    };
    window.addEventListener("beforeunload", beforeUnload);
    document.addEventListener("click", click, true);
    return () => {
      window.removeEventListener("beforeunload", beforeUnload);
      document.removeEventListener("click", click, true);
    };
  }, [dirty]);
}
