-- Account-mail jobs queued before the mail was composed at send time carry the whole mail, sign-in and reset
-- links in the clear, and staff can read the jobs table. Their links are forgotten: a link waiting at the
-- upgrade is not sent, and its shopper asks for another (docs/decisions/053).
UPDATE "jobs"
   SET "payload" = jsonb_build_object('forgotten', true, 'to', "payload"#>'{mail,to}', 'subject', "payload"#>'{mail,subject}')
 WHERE "kind" = 'account-mail' AND "payload" ? 'mail';
