CREATE TABLE "session_revocations" (
	"user_id" text PRIMARY KEY NOT NULL,
	"stamp" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "session_revocations_stamp_idx" ON "session_revocations" USING btree ("stamp");--> statement-breakpoint
-- Each session_changed announcement is also kept as the user's row in session_revocations (docs/decisions/069),
-- so an instance that starts listening reads the recent ones instead of trusting no session copy for a cookie
-- lifetime. The triggers now run at commit (deferred): the user's row is locked only from then to the end of
-- the commit, and the stamp is taken after that lock is granted, so a later commit always has a later stamp and
-- the row ends with the stamp every listener heard last.
CREATE OR REPLACE FUNCTION notify_session_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed_user text;
  kept bigint;
BEGIN
  IF TG_OP = 'DELETE' THEN
    changed_user := to_jsonb(OLD) ->> (CASE WHEN TG_TABLE_NAME = 'users' THEN 'id' ELSE 'user_id' END);
  ELSIF TG_TABLE_NAME = 'users' THEN
    IF (to_jsonb(OLD) - 'updated_at') = (to_jsonb(NEW) - 'updated_at') THEN
      RETURN NULL;
    END IF;
    changed_user := NEW.id;
  ELSE
    changed_user := NEW.user_id;
  END IF;
  -- The clock is read in the SET, after the row lock is granted (a conflicting commit has ended by then).
  INSERT INTO session_revocations AS kept_row (user_id, stamp)
    VALUES (changed_user, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint)
    ON CONFLICT (user_id) DO UPDATE SET stamp = (extract(epoch FROM clock_timestamp()) * 1000000)::bigint
    RETURNING kept_row.stamp INTO kept;
  PERFORM pg_notify('session_changed', changed_user || ':' || kept);
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER sessions_session_change_delete ON sessions;
--> statement-breakpoint
DROP TRIGGER sessions_session_change_update ON sessions;
--> statement-breakpoint
DROP TRIGGER users_session_change ON users;
--> statement-breakpoint
DROP TRIGGER accounts_password_change ON accounts;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER sessions_session_change_delete AFTER DELETE ON sessions
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION notify_session_change();
--> statement-breakpoint
-- A session moved to another account or made to expire sooner is as good as ended; a refresh that pushes
-- expires_at later (every day of use) is not announced.
CREATE CONSTRAINT TRIGGER sessions_session_change_update AFTER UPDATE ON sessions
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.user_id IS DISTINCT FROM OLD.user_id OR NEW.token IS DISTINCT FROM OLD.token
    OR NEW.expires_at < OLD.expires_at)
  EXECUTE FUNCTION notify_session_change();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER users_session_change AFTER UPDATE OR DELETE ON users
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION notify_session_change();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER accounts_password_change AFTER UPDATE ON accounts
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.password IS DISTINCT FROM OLD.password)
  EXECUTE FUNCTION notify_session_change();
