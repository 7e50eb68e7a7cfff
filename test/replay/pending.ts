/**
 * Recorded steps Folio answers differently from the recording, each with its reason: on purpose
 * (folio-decisions.md), or because the feature is another issue's. `skip` leaves the step out; `status`
 * (with `errorName`) states what Folio answers instead and is checked.
 */
export interface Override {
  reason: string;
  skip?: true;
  status?: number;
  errorName?: string;
}

const COMPONENT_IDS =
  'Folio hands out no component ids (folio-decisions §1): the body carries none, so the component is replaced';

export const OVERRIDES: Record<string, Record<string, Override>> = {
  '01-crud': {
    updateComponentWithPublishedId: { reason: COMPONENT_IDS, status: 200 },
    findDraftIds: { reason: COMPONENT_IDS, status: 200 },
    updateComponentWithId: { reason: COMPONENT_IDS, status: 200 },
    updateComponentPartialWithId: {
      reason: `${COMPONENT_IDS}, and its required metaDescription is missing`,
      status: 400,
      errorName: 'ValidationError',
    },
    findDraftIds2: { reason: COMPONENT_IDS, status: 200 },
    findDraftIds3: { reason: COMPONENT_IDS, status: 200 },
    updateRepeatableKeepId: { reason: `${COMPONENT_IDS}: the renamed link has no url`, status: 200 },
  },
  '05-fields-populate': {},
  '10-upload': {
    articleCoverTextFile: {
      reason:
        "a media field's allowedTypes is enforced when a file is linked, through the API too (issue 25); " +
        'Strapi checks it only in its admin picker',
      status: 400,
      errorName: 'ValidationError',
    },
  },
  '06-i18n-draft': {
    createUnknownLocale: {
      reason: 'a locale that is not configured is a 400 on writes (folio-decisions.md)',
      status: 400,
      errorName: 'ValidationError',
    },
  },
  '07-single-types': {
    aboutSliderNotAllowed: {
      reason:
        'Strapi silently drops a component the zone does not allow; ' +
        'Folio refuses it (issue 4: unknown component is a 400)',
      status: 400,
      errorName: 'ValidationError',
    },
    aboutAfterSlider: { reason: 'the refused write above left the zone as it was', status: 200 },
    globalPost: {
      reason: 'Folio answers 405 in the JSON error envelope, like every other error (issue 21)',
      status: 405,
      errorName: 'MethodNotAllowedError',
    },
  },
};
