import { engineSearchBackend } from "./engine-search-backend.js";
import { napiSearchBackend } from "./napi-search-backend.js";
import type { LanguageSearch, SearchBackend } from "./search-backend.js";

/** The backend that searches a language: the native engine where it reads the grammar, else napi. */
function backendFor(search: LanguageSearch): SearchBackend {
  return engineSearchBackend.reads(search.compiled.language) ? engineSearchBackend : napiSearchBackend;
}

/**
 * Search one language's files on its backend (see {@link SearchBackend.search}).
 * @returns how many files were read (from the cache or the disk).
 */
export async function searchLanguage(search: LanguageSearch): Promise<number> {
  return backendFor(search).search(search);
}
