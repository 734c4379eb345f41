/** A catalogue part in another language: the same keys as its Chinese part, each a string. */
export type Translation<T> = { readonly [K in keyof T]: string };
