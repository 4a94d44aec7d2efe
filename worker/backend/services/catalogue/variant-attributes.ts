/**
 * The typed values a product's variants give (migration 0041): an option whose code is an
 * attribute's of the product's category ("storage") and whose value codes are that attribute's
 * option codes ("512gb") or, for a number attribute, numbers ("65" inches), makes the product hold
 * one value of the attribute per value of its variants on sale (`value_key` the option's id or
 * the number), in place of the product's own value. Filters then find the phone sold in 512 GB
 * and the kept counts (their triggers) count it under each size; the product page lists them all.
 * Run after every write of a product's options or variants (console/product-variants.ts, seed).
 */
/**
 * The statements for the products `ids` names (SQL: `?1` bound to one, or a query of ids), so the
 * seed scripts (Node: no D1 types here) write exactly what the console does.
 */
export function variantAttributeSql(ids: string): string[] {
  return [
    `DELETE FROM product_attribute_values WHERE product_id IN (${ids}) AND value_key <> 0`,
    `INSERT INTO product_attribute_values (product_id, attribute_id, option_id, number_value, value_key)
     SELECT DISTINCT po.product_id, a.id,
       CASE WHEN a.type = 'enum' THEN ao.id END,
       CASE WHEN a.type = 'number' THEN CAST(ov.code AS REAL) END,
       CASE WHEN a.type = 'enum' THEN ao.id ELSE CAST(ov.code AS REAL) END
     FROM product_options po
     JOIN products p ON p.id = po.product_id
     JOIN categories c ON c.id = p.category_id
     JOIN attributes a ON a.code = po.code AND a.type IN ('enum', 'number')
     JOIN category_attributes ca ON ca.attribute_id = a.id AND ca.category_id IN (c.id, c.parent_id)
     JOIN product_option_values ov ON ov.option_id = po.id
     LEFT JOIN attribute_options ao ON ao.attribute_id = a.id AND ao.code = ov.code
     WHERE po.product_id IN (${ids})
       AND CASE WHEN a.type = 'enum' THEN ao.id IS NOT NULL
         ELSE ov.code NOT GLOB '*[^0-9]*' AND CAST(ov.code AS REAL) > 0 END
       AND EXISTS (SELECT 1 FROM variant_option_values vov JOIN product_variants pv ON pv.id = vov.variant_id
                   WHERE vov.value_id = ov.id AND pv.active = 1)`,
    // The product's own value of such an attribute gives way to its variants'.
    `DELETE FROM product_attribute_values WHERE product_id IN (${ids}) AND value_key = 0
       AND (product_id, attribute_id) IN (SELECT product_id, attribute_id FROM product_attribute_values
                                          WHERE product_id IN (${ids}) AND value_key <> 0)`,
  ];
}
