/** documentIds become file names, so only plain lowercase alphanumerics are ever accepted. */
export const SAFE_ID = /^[a-z0-9]{1,64}$/;

/** The load problem of a document file whose name is not a documentId. */
export const NOT_A_DOCUMENT_ID = 'the file name must be a documentId (lowercase letters and digits)';

/** A document file's name is its documentId and this suffix. */
export const DOCUMENT_SUFFIX = '.json';

/** The documentId a file name in a collection folder names, undefined when it names no document file. */
export const idOfFileName = (name: string): string | undefined =>
  name.endsWith(DOCUMENT_SUFFIX) ? name.slice(0, -DOCUMENT_SUFFIX.length) : undefined;
