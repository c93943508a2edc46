CREATE TABLE "left_cart_day_deltas" (
	"day" date NOT NULL,
	"left_behind" integer NOT NULL,
	"reminded" integer NOT NULL,
	"reminders_sent" integer NOT NULL,
	"whatsapp_sent" integer NOT NULL,
	"won_back" integer NOT NULL,
	"revenue_paise" bigint NOT NULL,
	"no_consent" integer NOT NULL,
	"unsubscribed" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "left_carts" ADD COLUMN "won_paise" integer;--> statement-breakpoint
CREATE INDEX "left_cart_day_deltas_day_idx" ON "left_cart_day_deltas" USING btree ("day");--> statement-breakpoint
CREATE INDEX "left_carts_user_id" ON "left_carts" USING btree ("user_id") WHERE "left_carts"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "left_carts_email" ON "left_carts" USING btree ("email") WHERE "left_carts"."email" is not null;--> statement-breakpoint
-- Hand-written (issue 44, docs/decisions/099): "Carts left behind" per day, kept by triggers in the statement that
-- changes what it counts, as sales_day_deltas is (migration 0053). Each left cart's won-back order is kept on its
-- row (won_paise), recomputed when the row, the shopper's orders or the account's e-mail change; the deltas
-- then follow the rows. Won back: the shopper's first order not waiting for payment nor cancelled, placed within
-- WON_BACK_DAYS (7, common/cart-reminders.ts) of the first reminder by either channel; the shopper is the
-- account, the e-mail (the guest's, else the account's), or, for a guest reached only by mobile, that mobile as
-- the reminder compared it (its last ten digits) against the order's delivery mobile.
CREATE FUNCTION "left_cart_mobile"(mobile text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT right(regexp_replace(mobile, '\D', '', 'g'), 10)
$$;--> statement-breakpoint
CREATE FUNCTION "left_cart_reminded_at"(first_reminded_at timestamptz, whatsapp_sent_at timestamptz,
  whatsapp_refused text) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
  SELECT least(first_reminded_at, CASE WHEN whatsapp_refused IS NULL THEN whatsapp_sent_at END)
$$;--> statement-breakpoint
-- Volatile, so that in a trigger it reads the orders committed by then (read committed): two orders of one
-- shopper placed at once each see the other's once it has committed, and the earlier one is kept.
CREATE FUNCTION "left_cart_won_paise"(cart_user text, cart_email text, cart_mobile text, reminded timestamptz)
RETURNS integer LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  by_email text;
  by_phone text;
  won integer;
BEGIN
  IF reminded IS NULL THEN RETURN NULL; END IF;
  by_email := coalesce(cart_email, (SELECT lower(u.email) FROM users u WHERE u.id = cart_user));
  IF cart_user IS NULL AND cart_email IS NULL THEN by_phone := left_cart_mobile(cart_mobile); END IF;
  SELECT o.total_paise INTO won FROM orders o
   WHERE (o.user_id = cart_user OR lower(o.guest_email) = by_email OR o.ship_phone = by_phone)
     AND o.created_at >= reminded AND o.created_at < reminded + interval '7 days'
     AND o.status NOT IN ('awaiting_payment', 'cancelled')
   ORDER BY o.created_at, o.id LIMIT 1;
  RETURN won;
END $$;--> statement-breakpoint
-- A guest reached only by mobile, found by an order's delivery mobile; an account by its e-mail, lower-cased.
CREATE INDEX "left_carts_mobile_only" ON "left_carts" USING btree (left_cart_mobile("mobile"))
  WHERE "user_id" IS NULL AND "email" IS NULL;--> statement-breakpoint
CREATE INDEX "users_email_lower_idx" ON "users" USING btree (lower("email"));--> statement-breakpoint
-- The left carts of the shoppers named (accounts, e-mails, mobiles) whose won-back order is no longer what their
-- row says: written again, and the row's trigger below keeps the new answer.
CREATE FUNCTION "left_carts_recheck_won"(user_ids text[], emails text[], phones text[]) RETURNS void
LANGUAGE sql VOLATILE AS $$
  UPDATE left_carts l SET won_paise = w.won
  FROM (
    SELECT c.id, c.won_paise, left_cart_won_paise(c.user_id, c.email, c.mobile,
      left_cart_reminded_at(c.first_reminded_at, c.whatsapp_sent_at, c.whatsapp_refused)) AS won
    FROM left_carts c
    WHERE c.id IN (
      SELECT id FROM left_carts WHERE user_id = ANY (user_ids)
      UNION SELECT id FROM left_carts WHERE email = ANY (emails)
      UNION SELECT c2.id FROM users u JOIN left_carts c2 ON c2.user_id = u.id WHERE lower(u.email) = ANY (emails)
      UNION SELECT id FROM left_carts
        WHERE user_id IS NULL AND email IS NULL AND left_cart_mobile(mobile) = ANY (phones))
  ) w
  WHERE l.id = w.id AND w.won IS DISTINCT FROM w.won_paise
$$;--> statement-breakpoint
CREATE FUNCTION "left_carts_won_on_orders"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  user_ids text[];
  emails text[];
  phones text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT user_id), array_agg(DISTINCT lower(guest_email)), array_agg(DISTINCT ship_phone)
      INTO user_ids, emails, phones FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT user_id), array_agg(DISTINCT lower(guest_email)), array_agg(DISTINCT ship_phone)
      INTO user_ids, emails, phones FROM old_rows;
  ELSE
    -- Only what a won-back order depends on: who, when, whether it counts, and its total.
    SELECT array_agg(DISTINCT s.user_id), array_agg(DISTINCT lower(s.guest_email)), array_agg(DISTINCT s.ship_phone)
      INTO user_ids, emails, phones
      FROM new_rows n JOIN old_rows o ON o.id = n.id
      CROSS JOIN LATERAL (VALUES (n.user_id, n.guest_email, n.ship_phone), (o.user_id, o.guest_email, o.ship_phone))
        AS s(user_id, guest_email, ship_phone)
     WHERE (n.user_id, n.guest_email, n.ship_phone, n.created_at, n.total_paise,
            n.status IN ('awaiting_payment', 'cancelled'))
           IS DISTINCT FROM
           (o.user_id, o.guest_email, o.ship_phone, o.created_at, o.total_paise,
            o.status IN ('awaiting_payment', 'cancelled'));
  END IF;
  IF user_ids IS NOT NULL OR emails IS NOT NULL OR phones IS NOT NULL THEN
    PERFORM left_carts_recheck_won(user_ids, emails, phones);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "left_carts_won_on_orders_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE left_carts SET won_paise = NULL WHERE won_paise IS NOT NULL;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "left_carts_won_on_user_email"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM left_carts_recheck_won(ARRAY[NEW.id], NULL, NULL);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "left_carts_won_on_row"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.won_paise := left_cart_won_paise(NEW.user_id, NEW.email, NEW.mobile,
    left_cart_reminded_at(NEW.first_reminded_at, NEW.whatsapp_sent_at, NEW.whatsapp_refused));
  RETURN NEW;
END $$;--> statement-breakpoint
-- What one left cart adds to its day: counted once it was reminded or closed for a reason the owner is told
-- (the report's "left behind"), on the Indian day of its last touch. One function for the three triggers: the
-- rows come from whichever transition tables the statement has.
CREATE FUNCTION "left_cart_deltas_on_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($sql$
    INSERT INTO left_cart_day_deltas (day, left_behind, reminded, reminders_sent, whatsapp_sent, won_back,
      revenue_paise, no_consent, unsubscribed)
    SELECT day, sum(sign * left_behind), sum(sign * reminded), sum(sign * reminders_sent), sum(sign * whatsapp_sent),
      sum(sign * won_back), sum(sign * revenue_paise), sum(sign * no_consent), sum(sign * unsubscribed)
    FROM (
      SELECT c.sign, order_indian_day(c.touched_at) AS day, 1 AS left_behind,
        (left_cart_reminded_at(c.first_reminded_at, c.whatsapp_sent_at, c.whatsapp_refused) IS NOT NULL)::int
          AS reminded,
        c.reminders_sent, (c.whatsapp_sent_at IS NOT NULL AND c.whatsapp_refused IS NULL)::int AS whatsapp_sent,
        (c.won_paise IS NOT NULL)::int AS won_back, coalesce(c.won_paise, 0)::bigint AS revenue_paise,
        (c.closed_reason IS NOT DISTINCT FROM 'no_consent')::int AS no_consent,
        (c.closed_reason IS NOT DISTINCT FROM 'unsubscribed')::int AS unsubscribed
      FROM (%s) AS c
      WHERE c.reminders_sent > 0 OR c.whatsapp_sent_at IS NOT NULL
         OR c.closed_reason IN ('no_consent', 'unsubscribed', 'no_email', 'recently_reminded', 'off')
    ) AS figures
    GROUP BY day
    HAVING sum(sign * left_behind) <> 0 OR sum(sign * reminded) <> 0 OR sum(sign * reminders_sent) <> 0
      OR sum(sign * whatsapp_sent) <> 0 OR sum(sign * won_back) <> 0 OR sum(sign * revenue_paise) <> 0
      OR sum(sign * no_consent) <> 0 OR sum(sign * unsubscribed) <> 0
  $sql$, CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS sign, * FROM new_carts'
    WHEN 'DELETE' THEN 'SELECT -1 AS sign, * FROM old_carts'
    ELSE 'SELECT 1 AS sign, * FROM new_carts UNION ALL SELECT -1, * FROM old_carts' END);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "left_cart_deltas_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM left_cart_day_deltas;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Backfill, before the triggers: each reminded cart's won-back order, by account, e-mail and mobile apart (three
-- joins the planner can hash, where one join on "or" would probe the orders per cart), the earliest kept.
UPDATE "left_carts" l SET "won_paise" = w.total_paise
FROM (
  WITH carts AS (
    SELECT c.id, c.user_id, coalesce(c.email, lower(u.email)) AS email,
      CASE WHEN c.user_id IS NULL AND c.email IS NULL THEN left_cart_mobile(c.mobile) END AS phone,
      left_cart_reminded_at(c.first_reminded_at, c.whatsapp_sent_at, c.whatsapp_refused) AS reminded_at
    FROM left_carts c LEFT JOIN users u ON u.id = c.user_id
    WHERE left_cart_reminded_at(c.first_reminded_at, c.whatsapp_sent_at, c.whatsapp_refused) IS NOT NULL
  ), candidates AS (
    SELECT c.id, c.reminded_at, o.id AS order_id, o.created_at, o.total_paise, o.status
      FROM carts c JOIN orders o ON o.user_id = c.user_id
    UNION ALL
    SELECT c.id, c.reminded_at, o.id, o.created_at, o.total_paise, o.status
      FROM carts c JOIN orders o ON lower(o.guest_email) = c.email
    UNION ALL
    SELECT c.id, c.reminded_at, o.id, o.created_at, o.total_paise, o.status
      FROM carts c JOIN orders o ON o.ship_phone = c.phone
  )
  SELECT DISTINCT ON (id) id, total_paise FROM candidates
   WHERE created_at >= reminded_at AND created_at < reminded_at + interval '7 days'
     AND status NOT IN ('awaiting_payment', 'cancelled')
   ORDER BY id, created_at, order_id
) w
WHERE l.id = w.id;--> statement-breakpoint
INSERT INTO "left_cart_day_deltas" ("day", "left_behind", "reminded", "reminders_sent", "whatsapp_sent", "won_back",
  "revenue_paise", "no_consent", "unsubscribed")
SELECT order_indian_day(touched_at), count(*),
  count(*) FILTER (WHERE left_cart_reminded_at(first_reminded_at, whatsapp_sent_at, whatsapp_refused) IS NOT NULL),
  sum(reminders_sent), count(*) FILTER (WHERE whatsapp_sent_at IS NOT NULL AND whatsapp_refused IS NULL),
  count(won_paise), coalesce(sum(won_paise), 0), count(*) FILTER (WHERE closed_reason = 'no_consent'),
  count(*) FILTER (WHERE closed_reason = 'unsubscribed')
FROM left_carts
WHERE reminders_sent > 0 OR whatsapp_sent_at IS NOT NULL
   OR closed_reason IN ('no_consent', 'unsubscribed', 'no_email', 'recently_reminded', 'off')
GROUP BY 1;--> statement-breakpoint
CREATE TRIGGER "left_carts_won" BEFORE INSERT OR UPDATE ON "left_carts" FOR EACH ROW EXECUTE FUNCTION left_carts_won_on_row();--> statement-breakpoint
CREATE TRIGGER "left_carts_day_deltas_insert" AFTER INSERT ON "left_carts" REFERENCING NEW TABLE AS new_carts FOR EACH STATEMENT EXECUTE FUNCTION left_cart_deltas_on_change();--> statement-breakpoint
CREATE TRIGGER "left_carts_day_deltas_update" AFTER UPDATE ON "left_carts" REFERENCING OLD TABLE AS old_carts NEW TABLE AS new_carts FOR EACH STATEMENT EXECUTE FUNCTION left_cart_deltas_on_change();--> statement-breakpoint
CREATE TRIGGER "left_carts_day_deltas_delete" AFTER DELETE ON "left_carts" REFERENCING OLD TABLE AS old_carts FOR EACH STATEMENT EXECUTE FUNCTION left_cart_deltas_on_change();--> statement-breakpoint
CREATE TRIGGER "left_carts_day_deltas_truncate" AFTER TRUNCATE ON "left_carts" FOR EACH STATEMENT EXECUTE FUNCTION left_cart_deltas_on_truncate();--> statement-breakpoint
CREATE TRIGGER "orders_left_carts_won_insert" AFTER INSERT ON "orders" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION left_carts_won_on_orders();--> statement-breakpoint
CREATE TRIGGER "orders_left_carts_won_update" AFTER UPDATE ON "orders" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION left_carts_won_on_orders();--> statement-breakpoint
CREATE TRIGGER "orders_left_carts_won_delete" AFTER DELETE ON "orders" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION left_carts_won_on_orders();--> statement-breakpoint
CREATE TRIGGER "orders_left_carts_won_truncate" AFTER TRUNCATE ON "orders" FOR EACH STATEMENT EXECUTE FUNCTION left_carts_won_on_orders_truncate();--> statement-breakpoint
CREATE TRIGGER "users_left_carts_won" AFTER UPDATE OF "email" ON "users" FOR EACH ROW WHEN (OLD.email IS DISTINCT FROM NEW.email) EXECUTE FUNCTION left_carts_won_on_user_email();
