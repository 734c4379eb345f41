/** How many rows a write changed, whichever count the statement reports. */
export const changed = (res: {
  numUpdatedRows?: bigint;
  numDeletedRows?: bigint;
  numInsertedOrUpdatedRows?: bigint;
}) =>
  Number(
    res.numUpdatedRows ??
      res.numDeletedRows ??
      res.numInsertedOrUpdatedRows ??
      0,
  );
