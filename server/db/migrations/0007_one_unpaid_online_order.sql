-- An account waiting on more than one online payment when this ships keeps its newest such order; the older
-- ones are cancelled by the shop with their stock put back, as a lapse would, so the index below can be built.
CREATE TEMPORARY TABLE "superseded_unpaid_orders" ON COMMIT DROP AS
  SELECT "id" FROM (
    SELECT "id", row_number() OVER (PARTITION BY "user_id" ORDER BY "created_at" DESC, "id" DESC) AS "newest"
    FROM "orders" WHERE "status" = 'awaiting_payment' AND "user_id" IS NOT NULL
  ) AS "ranked" WHERE "newest" > 1;
--> statement-breakpoint
UPDATE "products" SET "stock" = "products"."stock" + "returned"."quantity"
  FROM (SELECT "item_id", sum("quantity") AS "quantity" FROM "order_lines"
        WHERE "kind" = 'product' AND "order_id" IN (SELECT "id" FROM "superseded_unpaid_orders") GROUP BY "item_id") AS "returned"
  WHERE "products"."slug" = "returned"."item_id";
--> statement-breakpoint
UPDATE "combos" SET "stock" = "combos"."stock" + "returned"."quantity"
  FROM (SELECT "item_id", sum("quantity") AS "quantity" FROM "order_lines"
        WHERE "kind" = 'combo' AND "order_id" IN (SELECT "id" FROM "superseded_unpaid_orders") GROUP BY "item_id") AS "returned"
  WHERE "combos"."id" = "returned"."item_id";
--> statement-breakpoint
INSERT INTO "order_events" ("order_id", "from_status", "to_status", "actor", "note")
  SELECT "id", 'awaiting_payment', 'cancelled', 'system', 'Superseded by a newer order waiting for payment'
  FROM "superseded_unpaid_orders";
--> statement-breakpoint
UPDATE "orders" SET "status" = 'cancelled', "cancelled_at" = now(), "updated_at" = now()
  WHERE "id" IN (SELECT "id" FROM "superseded_unpaid_orders");
--> statement-breakpoint
CREATE UNIQUE INDEX "orders_one_awaiting_payment_per_user" ON "orders" USING btree ("user_id") WHERE "orders"."status" = 'awaiting_payment';
