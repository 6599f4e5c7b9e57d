import { benchSavedSearches } from './saved-searches';
import { createPostgresDatabase } from '../tests/helpers/test-app';
const created = await createPostgresDatabase('postgres://postgres@127.0.0.1:55432/postgres');
try {
  const figures = await benchSavedSearches(created.url);
  for (const f of figures) console.log(`${f.name}: ${f.value} ${f.unit} ${f.note ?? ''}`);
} finally { await created.drop(); }
process.exit(0);
