-- The trash on PostgreSQL (part of schema version 16): the same rows as SQLite's 33 triggers
-- keep (migrations/0014_trash.sql), by one trigger function. A delete (deleted_at set) adds the
-- record, a restore (cleared) or the row's removal takes it out, a row inserted already deleted
-- (an import of history) is added; a new deletion time re-adds it, newest.
--
-- Each kind's label, the record's name as it was when deleted, is a function overloaded on the
-- table's row type: PL/pgSQL plans a trigger function per table, so `trash_label(NEW)` is each
-- table's own. TG_ARGV[0] is the kind as the API spells it.

CREATE FUNCTION trash_label(r users) RETURNS text LANGUAGE sql STABLE
    RETURN COALESCE(r.first_name || ' ' || r.last_name || ' <' || r.email || '>', '');
CREATE FUNCTION trash_label(r hr_accounts) RETURNS text LANGUAGE sql STABLE
    RETURN COALESCE((SELECT u.first_name || ' ' || u.last_name || ' <' || u.email || '>' FROM users u WHERE u.id = r.user_id), '');
CREATE FUNCTION trash_label(r assets) RETURNS text LANGUAGE sql STABLE RETURN COALESCE(r.name, '');
CREATE FUNCTION trash_label(r partners) RETURNS text LANGUAGE sql STABLE RETURN COALESCE(r.name, '');
CREATE FUNCTION trash_label(r merchants) RETURNS text LANGUAGE sql STABLE
    RETURN COALESCE(r.first_name || ' ' || r.last_name || ' <' || r.email || '>', '');
CREATE FUNCTION trash_label(r campaign_categories) RETURNS text LANGUAGE sql STABLE RETURN COALESCE(r.name_en, '');
CREATE FUNCTION trash_label(r campaigns) RETURNS text LANGUAGE sql STABLE RETURN COALESCE(r.name_en, '');
CREATE FUNCTION trash_label(r notifications) RETURNS text LANGUAGE sql STABLE RETURN COALESCE(r.header, '');
CREATE FUNCTION trash_label(r employees) RETURNS text LANGUAGE sql STABLE
    RETURN COALESCE(r.first_name || ' ' || r.last_name || ' <' || r.email || '>', '');
CREATE FUNCTION trash_label(r usage_history) RETURNS text LANGUAGE sql STABLE
    RETURN COALESCE(r.campaign_name || ' · ' || r.employee_email || ' · ' || substr(r.created_at, 1, 10), '');
CREATE FUNCTION trash_label(r promo_codes) RETURNS text LANGUAGE sql STABLE RETURN COALESCE(r.code, '');

CREATE FUNCTION track_trash() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.deleted_at IS NOT DISTINCT FROM NEW.deleted_at THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'UPDATE' OR (TG_OP = 'DELETE' AND OLD.deleted_at IS NOT NULL) THEN
        DELETE FROM trash WHERE kind = TG_ARGV[0] AND record_id = OLD.id;
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.deleted_at IS NOT NULL THEN
        INSERT INTO trash (kind, record_id, label, deleted_at) VALUES (TG_ARGV[0], NEW.id, trash_label(NEW), NEW.deleted_at);
    END IF;
    RETURN NULL;
END $$;

-- Staff only: an HR portal login is trashed as its HR account.
CREATE TRIGGER users_trash AFTER INSERT ON users FOR EACH ROW WHEN (NEW.kind = 'staff')
    EXECUTE FUNCTION track_trash('user');
CREATE TRIGGER users_trash_update AFTER UPDATE OF deleted_at ON users FOR EACH ROW WHEN (NEW.kind = 'staff')
    EXECUTE FUNCTION track_trash('user');
CREATE TRIGGER users_trash_delete AFTER DELETE ON users FOR EACH ROW WHEN (OLD.kind = 'staff')
    EXECUTE FUNCTION track_trash('user');

CREATE TRIGGER hr_accounts_trash AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON hr_accounts
    FOR EACH ROW EXECUTE FUNCTION track_trash('humanResource');
CREATE TRIGGER assets_trash AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON assets
    FOR EACH ROW EXECUTE FUNCTION track_trash('asset');
CREATE TRIGGER partners_trash AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON partners
    FOR EACH ROW EXECUTE FUNCTION track_trash('partner');
CREATE TRIGGER merchants_trash AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON merchants
    FOR EACH ROW EXECUTE FUNCTION track_trash('partner/merchant');
CREATE TRIGGER campaign_categories_trash AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON campaign_categories
    FOR EACH ROW EXECUTE FUNCTION track_trash('campaign/category');
CREATE TRIGGER campaigns_trash AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON campaigns
    FOR EACH ROW EXECUTE FUNCTION track_trash('campaign');
CREATE TRIGGER notifications_trash AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON notifications
    FOR EACH ROW EXECUTE FUNCTION track_trash('notification');
CREATE TRIGGER employees_trash AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON employees
    FOR EACH ROW EXECUTE FUNCTION track_trash('employee');
CREATE TRIGGER usage_history_trash AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON usage_history
    FOR EACH ROW EXECUTE FUNCTION track_trash('usageHistory');
CREATE TRIGGER promo_codes_trash AFTER INSERT OR DELETE OR UPDATE OF deleted_at ON promo_codes
    FOR EACH ROW EXECUTE FUNCTION track_trash('promoCode');
