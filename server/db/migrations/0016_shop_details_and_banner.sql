CREATE TABLE "promo_banner" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"visible" boolean DEFAULT true NOT NULL,
	"headline" text NOT NULL,
	"details" text DEFAULT '' NOT NULL,
	"code" text,
	"short_label" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promo_banner_one_row" CHECK ("promo_banner"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "shop_details" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"legal_name" text NOT NULL,
	"address_line1" text,
	"address_line2" text DEFAULT '' NOT NULL,
	"city" text,
	"pin" text,
	"state" text,
	"phone" text NOT NULL,
	"email" text NOT NULL,
	"gstin" text,
	"fssai_licence" text,
	"grievance_officer_name" text,
	"grievance_officer_email" text NOT NULL,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shop_details_one_row" CHECK ("shop_details"."id" = 1),
	CONSTRAINT "shop_details_address_whole" CHECK (("shop_details"."address_line1" is null) = ("shop_details"."city" is null) and ("shop_details"."city" is null) = ("shop_details"."pin" is null) and ("shop_details"."pin" is null) = ("shop_details"."state" is null))
);
