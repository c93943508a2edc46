CREATE TABLE "audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" text NOT NULL,
	"actor_email" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"action" text NOT NULL,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
CREATE INDEX "audit_log_created_at_id" ON "audit_log" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_entity_created_at_id" ON "audit_log" USING btree ("entity_type","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_log_actor_created_at_id" ON "audit_log" USING btree ("actor_id","created_at","id");--> statement-breakpoint
UPDATE "users" SET "role" = 'owner' WHERE "role" = 'admin';
