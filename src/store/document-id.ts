/** documentIds become file names, so only plain lowercase alphanumerics are ever accepted. */
export const SAFE_ID = /^[a-z0-9]{1,64}$/;

/** The load problem of a document file whose name is not a documentId. */
export const NOT_A_DOCUMENT_ID = 'the file name must be a documentId (lowercase letters and digits)';
