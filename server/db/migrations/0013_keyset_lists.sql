DROP INDEX "contact_messages_created_idx";--> statement-breakpoint
DROP INDEX "orders_user_id_created_at_idx";--> statement-breakpoint
CREATE INDEX "contact_messages_created_at_id_idx" ON "contact_messages" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "contact_messages_unread_created_at_id_idx" ON "contact_messages" USING btree ("created_at","id") WHERE "contact_messages"."read_at" is null;--> statement-breakpoint
CREATE INDEX "orders_user_id_created_at_id_idx" ON "orders" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "questions_created_at_id_idx" ON "questions" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "questions_unanswered_created_at_id_idx" ON "questions" USING btree ("created_at","id") WHERE "questions"."answer" is null and not "questions"."hidden";--> statement-breakpoint
CREATE INDEX "questions_answered_created_at_id_idx" ON "questions" USING btree ("created_at","id") WHERE "questions"."answer" is not null and not "questions"."hidden";--> statement-breakpoint
CREATE INDEX "questions_hidden_created_at_id_idx" ON "questions" USING btree ("created_at","id") WHERE "questions"."hidden";--> statement-breakpoint
CREATE INDEX "reviews_status_created_at_id_idx" ON "reviews" USING btree ("status","created_at","id");