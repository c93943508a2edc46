-- One CSV cell as spreadsheet programs read it, for exports the database writes row by row
-- (server/orders/admin-orders.data.ts): NULL is empty; a leading - = + @ tab or CR is defused with a quote
-- mark so a customer's name cannot run as a formula, except in a plain negative decimal, which can only be
-- read as a number (server/csv.ts's rule); a cell holding a quote, comma or line break is quoted.
-- One CASE over its argument, so PostgreSQL inlines it into the query; the first regular expression lets
-- the common cell (nothing to defuse or quote) through with one test.
CREATE OR REPLACE FUNCTION csv_cell(value text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN value IS NULL THEN ''
    WHEN value !~ '^[-=+@\t\r]|[",\r\n]' THEN value
    WHEN value ~ '^-[0-9]+(\.[0-9]+)?$' THEN value
    WHEN value ~ '[",\r\n]' THEN '"' || replace(
      CASE WHEN value ~ '^[-=+@\t\r]' THEN '''' || value ELSE value END, '"', '""') || '"'
    ELSE '''' || value
  END
$$;
