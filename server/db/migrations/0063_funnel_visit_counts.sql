CREATE TABLE "funnel_visit_counts" (
	"day" date NOT NULL,
	"step" text NOT NULL,
	"sessions" integer NOT NULL,
	CONSTRAINT "funnel_visit_counts_day_step_pk" PRIMARY KEY("day","step")
);
--> statement-breakpoint
-- Hand-written (issue 44, docs/decisions/094 "The funnel's visitors counted"). The rows a statement inserted count
-- for, those it deleted against (an ON CONFLICT DO NOTHING skips are in neither); the counts are written in the
-- order of day and step, so two instances' flushes at once take their row locks in one order; a count that falls
-- to nothing goes (the roll-up deletes the days it moves; a flush only inserts, so it never looks for those). Truncation empties the counts.
CREATE FUNCTION "funnel_visit_counts_on_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM funnel_visit_counts;
    RETURN NULL;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO funnel_visit_counts (day, step, sessions)
    SELECT day, step, count(*) FROM new_rows GROUP BY day, step ORDER BY day, step
    ON CONFLICT (day, step) DO UPDATE SET sessions = funnel_visit_counts.sessions + excluded.sessions;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO funnel_visit_counts (day, step, sessions)
    SELECT day, step, -count(*) FROM old_rows GROUP BY day, step ORDER BY day, step
    ON CONFLICT (day, step) DO UPDATE SET sessions = funnel_visit_counts.sessions + excluded.sessions;
  ELSE
    INSERT INTO funnel_visit_counts (day, step, sessions)
    SELECT day, step, sum(sign) FROM (
      SELECT day, step, 1 AS sign FROM new_rows UNION ALL SELECT day, step, -1 FROM old_rows
    ) AS changed
    GROUP BY day, step HAVING sum(sign) <> 0 ORDER BY day, step
    ON CONFLICT (day, step) DO UPDATE SET sessions = funnel_visit_counts.sessions + excluded.sessions;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM funnel_visit_counts WHERE sessions = 0;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "funnel_visits_counts_insert" AFTER INSERT ON "funnel_visits" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION funnel_visit_counts_on_change();--> statement-breakpoint
CREATE TRIGGER "funnel_visits_counts_update" AFTER UPDATE ON "funnel_visits" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION funnel_visit_counts_on_change();--> statement-breakpoint
CREATE TRIGGER "funnel_visits_counts_delete" AFTER DELETE ON "funnel_visits" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION funnel_visit_counts_on_change();--> statement-breakpoint
CREATE TRIGGER "funnel_visits_counts_truncate" AFTER TRUNCATE ON "funnel_visits" FOR EACH STATEMENT EXECUTE FUNCTION funnel_visit_counts_on_change();--> statement-breakpoint
-- Backfill: the visitors held now.
INSERT INTO "funnel_visit_counts" ("day", "step", "sessions")
SELECT "day", "step", count(*) FROM "funnel_visits" GROUP BY "day", "step";
