/** The <script type="application/json"> holding the loaders' data the server rendered the page with. */
export const HYDRATION_DATA_ID = "router-data";
