/** What the admin feature offers the others; everything else in this folder is its own. */
