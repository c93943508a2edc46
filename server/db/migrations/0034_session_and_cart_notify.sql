-- What a signed-in request trusts without asking the database (the signed session cookie cache, a cart kept in
-- memory) is forgotten on every instance when these triggers announce a change, at its commit and never for a
-- rollback (docs/decisions/060). Each payload is '<user id>:<number>'.
--
-- session_changed: a session ended (sign-out, revoked, expired early, the account deleted) or what a session
-- carries about its user changed (role, e-mail, name, confirmation), or a password changed. The number is a
-- stamp every instance hears alike, so a cookie labelled with it on one instance is accepted by the others.
CREATE FUNCTION notify_session_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed_user text;
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
  PERFORM pg_notify('session_changed',
    changed_user || ':' || (extract(epoch FROM clock_timestamp()) * 1000000)::bigint);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_session_change_delete AFTER DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION notify_session_change();
--> statement-breakpoint
-- A session moved to another account or made to expire sooner is as good as ended; a refresh that pushes
-- expires_at later (every day of use) is not announced.
CREATE TRIGGER sessions_session_change_update AFTER UPDATE ON sessions
  FOR EACH ROW WHEN (NEW.user_id IS DISTINCT FROM OLD.user_id OR NEW.token IS DISTINCT FROM OLD.token
    OR NEW.expires_at < OLD.expires_at)
  EXECUTE FUNCTION notify_session_change();
--> statement-breakpoint
CREATE TRIGGER users_session_change AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION notify_session_change();
--> statement-breakpoint
CREATE TRIGGER accounts_password_change AFTER UPDATE ON accounts
  FOR EACH ROW WHEN (NEW.password IS DISTINCT FROM OLD.password)
  EXECUTE FUNCTION notify_session_change();
--> statement-breakpoint
-- cart_changed: every change to a saved cart bumps carts.version (decision 040); the number is the new version.
CREATE FUNCTION notify_cart_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cart_changed', NEW.user_id || ':' || NEW.version);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER carts_cart_change AFTER INSERT OR UPDATE OF version ON carts
  FOR EACH ROW EXECUTE FUNCTION notify_cart_change();
