CREATE TABLE "buyer_sale_day_deltas" (
	"day" date NOT NULL,
	"firsts" integer DEFAULT 0 NOT NULL,
	"later" integer DEFAULT 0 NOT NULL,
	"seconds" integer DEFAULT 0 NOT NULL,
	"nexts" integer DEFAULT 0 NOT NULL,
	"second_nexts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_month_deltas" (
	"month" date NOT NULL,
	"dimension" text NOT NULL,
	"key" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"count" integer NOT NULL,
	"units" integer DEFAULT 0 NOT NULL,
	"amount_paise" bigint NOT NULL,
	"other_paise" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "buyer_sale_day_deltas_day_idx" ON "buyer_sale_day_deltas" USING btree ("day");--> statement-breakpoint
CREATE INDEX "sales_month_deltas_month_idx" ON "sales_month_deltas" USING btree ("month","dimension");
--> statement-breakpoint
-- buyer_sales' rows counted per day: a row counts on its day (a first sale, a later one, a second one) and on
-- its previous sale's day (the sale that follows that day's, and whether it is the buyer's second). Rows a
-- statement removes count against, rows it adds for; an update writes the difference; days summing to
-- nothing write no row. Truncation empties the deltas.
CREATE FUNCTION "buyer_sale_day_deltas_on_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM buyer_sale_day_deltas;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO buyer_sale_day_deltas (day, firsts, later, seconds, nexts, second_nexts)
    WITH changed AS (SELECT day, previous_day, rank, 1 AS sign FROM new_rows)
    SELECT day, sum(firsts), sum(later), sum(seconds), sum(nexts), sum(second_nexts)
    FROM (
      SELECT c.day, c.sign * (c.previous_day IS NULL)::int AS firsts,
        c.sign * (c.previous_day IS NOT NULL)::int AS later, c.sign * (c.rank = 2)::int AS seconds,
        0 AS nexts, 0 AS second_nexts
      FROM changed c
      UNION ALL
      SELECT c.previous_day, 0, 0, 0, c.sign, c.sign * (c.rank = 2)::int
      FROM changed c WHERE c.previous_day IS NOT NULL
    ) AS counted
    GROUP BY day
    HAVING sum(firsts) <> 0 OR sum(later) <> 0 OR sum(seconds) <> 0 OR sum(nexts) <> 0
      OR sum(second_nexts) <> 0;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO buyer_sale_day_deltas (day, firsts, later, seconds, nexts, second_nexts)
    WITH changed AS (SELECT day, previous_day, rank, -1 AS sign FROM old_rows)
    SELECT day, sum(firsts), sum(later), sum(seconds), sum(nexts), sum(second_nexts)
    FROM (
      SELECT c.day, c.sign * (c.previous_day IS NULL)::int AS firsts,
        c.sign * (c.previous_day IS NOT NULL)::int AS later, c.sign * (c.rank = 2)::int AS seconds,
        0 AS nexts, 0 AS second_nexts
      FROM changed c
      UNION ALL
      SELECT c.previous_day, 0, 0, 0, c.sign, c.sign * (c.rank = 2)::int
      FROM changed c WHERE c.previous_day IS NOT NULL
    ) AS counted
    GROUP BY day
    HAVING sum(firsts) <> 0 OR sum(later) <> 0 OR sum(seconds) <> 0 OR sum(nexts) <> 0
      OR sum(second_nexts) <> 0;
  ELSE
    INSERT INTO buyer_sale_day_deltas (day, firsts, later, seconds, nexts, second_nexts)
    WITH changed AS (SELECT day, previous_day, rank, 1 AS sign FROM new_rows UNION ALL SELECT day, previous_day, rank, -1 AS sign FROM old_rows)
    SELECT day, sum(firsts), sum(later), sum(seconds), sum(nexts), sum(second_nexts)
    FROM (
      SELECT c.day, c.sign * (c.previous_day IS NULL)::int AS firsts,
        c.sign * (c.previous_day IS NOT NULL)::int AS later, c.sign * (c.rank = 2)::int AS seconds,
        0 AS nexts, 0 AS second_nexts
      FROM changed c
      UNION ALL
      SELECT c.previous_day, 0, 0, 0, c.sign, c.sign * (c.rank = 2)::int
      FROM changed c WHERE c.previous_day IS NOT NULL
    ) AS counted
    GROUP BY day
    HAVING sum(firsts) <> 0 OR sum(later) <> 0 OR sum(seconds) <> 0 OR sum(nexts) <> 0
      OR sum(second_nexts) <> 0;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "buyer_sales_day_deltas_insert" AFTER INSERT ON "buyer_sales" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION buyer_sale_day_deltas_on_change();--> statement-breakpoint
CREATE TRIGGER "buyer_sales_day_deltas_update" AFTER UPDATE ON "buyer_sales" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION buyer_sale_day_deltas_on_change();--> statement-breakpoint
CREATE TRIGGER "buyer_sales_day_deltas_delete" AFTER DELETE ON "buyer_sales" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION buyer_sale_day_deltas_on_change();--> statement-breakpoint
CREATE TRIGGER "buyer_sales_day_deltas_truncate" AFTER TRUNCATE ON "buyer_sales" FOR EACH STATEMENT EXECUTE FUNCTION buyer_sale_day_deltas_on_change();--> statement-breakpoint
-- Backfill: one row per day from every sale so far.
INSERT INTO "buyer_sale_day_deltas" ("day", "firsts", "later", "seconds", "nexts", "second_nexts")
SELECT day, sum(firsts), sum(later), sum(seconds), sum(nexts), sum(second_nexts)
FROM (
  SELECT day, count(*) FILTER (WHERE previous_day IS NULL) AS firsts,
    count(*) FILTER (WHERE previous_day IS NOT NULL) AS later, count(*) FILTER (WHERE rank = 2) AS seconds,
    0 AS nexts, 0 AS second_nexts
  FROM "buyer_sales" GROUP BY day
  UNION ALL
  SELECT previous_day, 0, 0, 0, count(*), count(*) FILTER (WHERE rank = 2)
  FROM "buyer_sales" WHERE previous_day IS NOT NULL GROUP BY previous_day
) AS counted
GROUP BY day;
--> statement-breakpoint
-- A period's refunds read from the index alone: the same index with the columns the sums read.
DROP INDEX "money_ledger_refunds_created_at_idx";--> statement-breakpoint
CREATE INDEX "money_ledger_refunds_created_at_idx" ON "money_ledger" USING btree ("created_at")
  INCLUDE ("kind", "applied", "order_id", "amount_paise") WHERE "kind" in ('online_refund', 'cash_refund');
--> statement-breakpoint
-- sales_day_deltas summed per month, written by the statement that writes it: its rows added count for, its
-- rows removed against (a fold's removed rows and their sums cancel), months summing to nothing write no row.
CREATE FUNCTION "sales_month_deltas_on_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM sales_month_deltas;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO sales_month_deltas (month, dimension, key, name, count, units, amount_paise, other_paise)
    SELECT date_trunc('month', c.day)::date, c.dimension, c.key, c.name, sum(c.sign * c.count),
      sum(c.sign * c.units), sum(c.sign * c.amount_paise), sum(c.sign * c.other_paise)
    FROM (SELECT day, dimension, key, name, count, units, amount_paise, other_paise, 1 AS sign FROM new_rows) AS c
    GROUP BY 1, 2, 3, 4
    HAVING sum(c.sign * c.count) <> 0 OR sum(c.sign * c.units) <> 0 OR sum(c.sign * c.amount_paise) <> 0
      OR sum(c.sign * c.other_paise) <> 0;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO sales_month_deltas (month, dimension, key, name, count, units, amount_paise, other_paise)
    SELECT date_trunc('month', c.day)::date, c.dimension, c.key, c.name, sum(c.sign * c.count),
      sum(c.sign * c.units), sum(c.sign * c.amount_paise), sum(c.sign * c.other_paise)
    FROM (SELECT day, dimension, key, name, count, units, amount_paise, other_paise, -1 AS sign FROM old_rows) AS c
    GROUP BY 1, 2, 3, 4
    HAVING sum(c.sign * c.count) <> 0 OR sum(c.sign * c.units) <> 0 OR sum(c.sign * c.amount_paise) <> 0
      OR sum(c.sign * c.other_paise) <> 0;
  ELSE
    INSERT INTO sales_month_deltas (month, dimension, key, name, count, units, amount_paise, other_paise)
    SELECT date_trunc('month', c.day)::date, c.dimension, c.key, c.name, sum(c.sign * c.count),
      sum(c.sign * c.units), sum(c.sign * c.amount_paise), sum(c.sign * c.other_paise)
    FROM (SELECT day, dimension, key, name, count, units, amount_paise, other_paise, 1 AS sign FROM new_rows UNION ALL SELECT day, dimension, key, name, count, units, amount_paise, other_paise, -1 AS sign FROM old_rows) AS c
    GROUP BY 1, 2, 3, 4
    HAVING sum(c.sign * c.count) <> 0 OR sum(c.sign * c.units) <> 0 OR sum(c.sign * c.amount_paise) <> 0
      OR sum(c.sign * c.other_paise) <> 0;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "sales_day_deltas_month_insert" AFTER INSERT ON "sales_day_deltas" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sales_month_deltas_on_change();--> statement-breakpoint
CREATE TRIGGER "sales_day_deltas_month_update" AFTER UPDATE ON "sales_day_deltas" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION sales_month_deltas_on_change();--> statement-breakpoint
CREATE TRIGGER "sales_day_deltas_month_delete" AFTER DELETE ON "sales_day_deltas" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION sales_month_deltas_on_change();--> statement-breakpoint
CREATE TRIGGER "sales_day_deltas_month_truncate" AFTER TRUNCATE ON "sales_day_deltas" FOR EACH STATEMENT EXECUTE FUNCTION sales_month_deltas_on_change();--> statement-breakpoint
-- Backfill: one row per month and key from the per-day summary so far.
INSERT INTO "sales_month_deltas" ("month", "dimension", "key", "name", "count", "units", "amount_paise", "other_paise")
SELECT date_trunc('month', day)::date, dimension, key, name, sum(count), sum(units), sum(amount_paise),
  sum(other_paise)
FROM "sales_day_deltas" GROUP BY 1, 2, 3, 4
HAVING sum(count) <> 0 OR sum(units) <> 0 OR sum(amount_paise) <> 0 OR sum(other_paise) <> 0;
