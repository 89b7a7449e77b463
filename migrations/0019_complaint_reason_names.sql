-- Complaint reasons are system words the panel shows in every language: each gets a name per API
-- language (Az, En, Ru, as categories and cities have), chosen by Accept-Language in the
-- complaints list and its export. `name` stays the English one.
ALTER TABLE complaint_reasons ADD COLUMN name_az TEXT NOT NULL DEFAULT '';
ALTER TABLE complaint_reasons ADD COLUMN name_en TEXT NOT NULL DEFAULT '';
ALTER TABLE complaint_reasons ADD COLUMN name_ru TEXT NOT NULL DEFAULT '';
UPDATE complaint_reasons SET name_en = name, name_az = name, name_ru = name;
UPDATE complaint_reasons SET name_az = 'Endirim tətbiq edilmədi', name_ru = 'Скидку не предоставили' WHERE id = 1;
UPDATE complaint_reasons SET name_az = 'Endirimin məbləği səhvdir', name_ru = 'Неверный размер скидки' WHERE id = 2;
UPDATE complaint_reasons SET name_az = 'İşçilərin davranışı', name_ru = 'Поведение персонала' WHERE id = 3;
UPDATE complaint_reasons SET name_az = 'Tətbiqdə problem', name_ru = 'Проблема с приложением' WHERE id = 4;
UPDATE complaint_reasons SET name_az = 'Digər', name_ru = 'Другое' WHERE id = 5;
