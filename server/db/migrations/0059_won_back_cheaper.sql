-- Hand-written (issue 44, docs/decisions/099, "Won back, cheaply and exactly"). Cheap: an order of a shopper who
-- has no left cart costs one indexed probe of left_carts, and the carts' summary trigger returns at once when
-- no cart changed. Exact under concurrency: the carts an order names are locked in a fixed order before their
-- answer is read again, so an order and another order or a reminder sent at once for the same cart see each
-- other. A cart with a mobile (a guest's, reminded on WhatsApp) is won back by an order to that mobile as well
-- as by its e-mail.
CREATE OR REPLACE FUNCTION "left_cart_won_paise"(cart_user text, cart_email text, cart_mobile text, reminded timestamptz)
RETURNS integer LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  by_email text;
  by_phone text;
  won integer;
BEGIN
  IF reminded IS NULL THEN RETURN NULL; END IF;
  by_email := coalesce(cart_email, (SELECT lower(u.email) FROM users u WHERE u.id = cart_user));
  by_phone := nullif(left_cart_mobile(cart_mobile), '');
  SELECT o.total_paise INTO won FROM orders o
   WHERE (o.user_id = cart_user OR lower(o.guest_email) = by_email OR o.ship_phone = by_phone)
     AND o.created_at >= reminded AND o.created_at < reminded + interval '7 days'
     AND o.status NOT IN ('awaiting_payment', 'cancelled')
   ORDER BY o.created_at, o.id LIMIT 1;
  RETURN won;
END $$;--> statement-breakpoint
DROP INDEX IF EXISTS "left_carts_mobile_only";--> statement-breakpoint
CREATE INDEX "left_carts_mobile" ON "left_carts" USING btree (left_cart_mobile("mobile"))
  WHERE "mobile" IS NOT NULL;--> statement-breakpoint
-- The left carts of the shoppers named (accounts, e-mails, mobiles), locked in the order of their ids, then read
-- again: a transaction that wrote an order for one of them and holds its lock has committed by then, and this
-- statement's snapshot sees its order. Only carts whose answer changed are written, and none when none did.
CREATE OR REPLACE FUNCTION "left_carts_recheck_won"(user_ids text[], emails text[], phones text[]) RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  cart_ids uuid[];
  changed uuid[];
  answers integer[];
BEGIN
  SELECT array_agg(id) INTO cart_ids FROM (
    SELECT c.id FROM left_carts c
     WHERE c.id IN (
       SELECT id FROM left_carts WHERE user_id = ANY (user_ids)
       UNION SELECT id FROM left_carts WHERE email = ANY (emails)
       UNION SELECT c2.id FROM users u JOIN left_carts c2 ON c2.user_id = u.id WHERE lower(u.email) = ANY (emails)
       UNION SELECT id FROM left_carts WHERE mobile IS NOT NULL AND left_cart_mobile(mobile) = ANY (phones))
     ORDER BY c.id
       FOR UPDATE OF c) AS locked;
  IF cart_ids IS NULL THEN RETURN; END IF;
  SELECT array_agg(w.id), array_agg(w.won) INTO changed, answers FROM (
    SELECT c.id, c.won_paise, left_cart_won_paise(c.user_id, c.email, c.mobile,
      left_cart_reminded_at(c.first_reminded_at, c.whatsapp_sent_at, c.whatsapp_refused)) AS won
    FROM left_carts c WHERE c.id = ANY (cart_ids)
  ) AS w
  WHERE w.won IS DISTINCT FROM w.won_paise;
  IF changed IS NULL THEN RETURN; END IF;
  UPDATE left_carts l SET won_paise = a.won
    FROM unnest(changed, answers) AS a(id, won)
   WHERE l.id = a.id;
END $$;--> statement-breakpoint
-- The shoppers an order statement names, without nulls (a signed-in order has no guest e-mail: an array of one
-- null would probe for it), and nothing more when they have no left cart.
CREATE OR REPLACE FUNCTION "left_carts_won_on_orders"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  has_cart boolean := false;
  user_ids text[];
  emails text[];
  phones text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT user_id) FILTER (WHERE user_id IS NOT NULL),
           array_agg(DISTINCT lower(guest_email)) FILTER (WHERE guest_email IS NOT NULL),
           array_agg(DISTINCT ship_phone) FILTER (WHERE ship_phone IS NOT NULL)
      INTO user_ids, emails, phones FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT user_id) FILTER (WHERE user_id IS NOT NULL),
           array_agg(DISTINCT lower(guest_email)) FILTER (WHERE guest_email IS NOT NULL),
           array_agg(DISTINCT ship_phone) FILTER (WHERE ship_phone IS NOT NULL)
      INTO user_ids, emails, phones FROM old_rows;
  ELSE
    -- Only what a won-back order depends on: who, when, whether it counts, and its total.
    SELECT array_agg(DISTINCT s.user_id) FILTER (WHERE s.user_id IS NOT NULL),
           array_agg(DISTINCT lower(s.guest_email)) FILTER (WHERE s.guest_email IS NOT NULL),
           array_agg(DISTINCT s.ship_phone) FILTER (WHERE s.ship_phone IS NOT NULL)
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
  -- Most orders are a shopper's who left no cart: an index probe per kind of name finds none, each a statement
  -- quick to plan (the recheck's union takes a millisecond or more to plan, in every session that runs it).
  IF user_ids IS NOT NULL THEN
    has_cart := EXISTS (SELECT 1 FROM left_carts WHERE user_id = ANY (user_ids));
  END IF;
  IF NOT has_cart AND emails IS NOT NULL THEN
    has_cart := EXISTS (SELECT 1 FROM left_carts WHERE email = ANY (emails))
      OR EXISTS (SELECT 1 FROM users u JOIN left_carts c ON c.user_id = u.id WHERE lower(u.email) = ANY (emails));
  END IF;
  IF NOT has_cart AND phones IS NOT NULL THEN
    has_cart := EXISTS (SELECT 1 FROM left_carts WHERE mobile IS NOT NULL AND left_cart_mobile(mobile) = ANY (phones));
  END IF;
  IF NOT has_cart THEN RETURN NULL; END IF;
  -- Locks the carts of those shoppers, then reads them again. A cart that exists now is found by the probe
  -- above; one inserted meanwhile has not been reminded, so no order wins it back yet.
  PERFORM left_carts_recheck_won(user_ids, emails, phones);
  RETURN NULL;
END $$;--> statement-breakpoint
-- A statement that changed no left cart (the recheck above, the sweep finding nothing) adds nothing to any day.
CREATE OR REPLACE FUNCTION "left_cart_deltas_on_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM old_carts) THEN RETURN NULL; END IF;
  ELSIF NOT EXISTS (SELECT 1 FROM new_carts) THEN
    RETURN NULL;
  END IF;
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
-- Guests' carts with both an e-mail and a mobile, reminded: their answer now counts orders to the mobile too.
UPDATE "left_carts" SET "won_paise" = "won_paise"
 WHERE "mobile" IS NOT NULL AND "email" IS NOT NULL
   AND left_cart_reminded_at("first_reminded_at", "whatsapp_sent_at", "whatsapp_refused") IS NOT NULL
   AND "won_paise" IS DISTINCT FROM left_cart_won_paise("user_id", "email", "mobile",
     left_cart_reminded_at("first_reminded_at", "whatsapp_sent_at", "whatsapp_refused"));
