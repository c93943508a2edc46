import { lazy, Suspense, useState } from "react";
import type { DialogProps } from "./dialog.tsx";

const Dialog = lazy(() => import("./dialog.tsx").then((m) => ({ default: m.Dialog })));

/**
 * The Dialog for pop-ups on the first screen (Learn More, the header's search), downloaded the first
 * time it opens: most visits never open them. The opener keeps focus meanwhile, and gets it back on close.
 */
export function LazyDialog(props: DialogProps) {
  const [opened, setOpened] = useState(props.open);
  if (props.open && !opened) setOpened(true);
  return opened ? (
    <Suspense fallback={null}>
      <Dialog {...props} />
    </Suspense>
  ) : null;
}
