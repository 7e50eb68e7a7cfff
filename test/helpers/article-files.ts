/**
 * One version of the blog fixture's article as its file holds it: every field null or empty but those given, its
 * timestamps `at`, and published or a draft. Tests that write documents by hand (as a checkout or an editor does)
 * give only the fields they query.
 */
export function articleVersion(id: number, given: Record<string, unknown>, at: string, published: boolean) {
  return {
    id,
    title: null,
    slug: null,
    description: null,
    views: null,
    rating: null,
    featured: false,
    author: null,
    body: null,
    cover: null,
    category: null,
    tags: [],
    blocks: [],
    seo: null,
    links: [],
    publishDate: null,
    secretNote: null,
    createdAt: at,
    updatedAt: at,
    publishedAt: published ? at : null,
    ...given,
  };
}
