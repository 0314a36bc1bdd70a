/** A table's column headings, each a `th scope="col"` so screen readers name every cell by its column. */
export function HeaderRow({ columns }: { columns: string[] }) {
  return (
    <tr>
      {columns.map((h) => (
        <th scope="col" key={h}>
          {h}
        </th>
      ))}
    </tr>
  );
}
