/** The product version, recorded in bundles and outputs. Kept in step with package.json by a unit test. */
export const PRODUCT_VERSION = '0.1.0';
