import { Hono } from "hono";
import { z } from "zod";
import { addressInputSchema } from "../../common/schemas/address.ts";
import { plainText } from "../../common/schemas/text.ts";
import { requireUser } from "../auth/session.ts";
import { checkAddressPlace } from "../delivery/delivery.data.ts";
import type { Deps } from "../deps.ts";
import { notFound } from "../errors.ts";
import { validate } from "../validate.ts";
import { deleteAddress, listAddresses, saveAddress } from "./addresses.data.ts";

/** The signed-in customer's address book, offered at checkout. */
export function addressRoutes(deps: Deps) {
  return new Hono()
    .get("/", async (c) => {
      const user = await requireUser(deps, c);
      return c.json({ addresses: await listAddresses(deps.db, user.id) });
    })
    .post("/", validate("json", addressInputSchema), async (c) => {
      const user = await requireUser(deps, c);
      const address = c.req.valid("json");
      const place = await checkAddressPlace(address);
      const district = address.district || place.district;
      return c.json({ address: await saveAddress(deps.db, user.id, { ...address, district }) }, 201);
    })
    .delete("/:id", validate("param", z.object({ id: plainText().max(100) })), async (c) => {
      const user = await requireUser(deps, c);
      if (!(await deleteAddress(deps.db, user.id, c.req.valid("param").id))) {
        throw notFound("There is no such address in your address book.");
      }
      return c.body(null, 204);
    });
}
