import { type AdminProductImage, MAX_IMAGE_BYTES } from "../../../common/schemas/admin-products.ts";
import { api, isApiError } from "../../lib/api.ts";

function readAsBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ""));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/**
 * Uploads a photo through the one pipeline of the admin's photos (/api/admin/product-images: checked by
 * content, made into the shop's sizes, stored by hash), for a product or a combo. A refusal comes back as
 * words to show beside the field, naming the file.
 */
export async function uploadPhoto(
  file: File,
  purpose: "photo" | "logo" = "photo",
): Promise<{ ok: true; image: AdminProductImage } | { ok: false; problem: string }> {
  if (file.size > MAX_IMAGE_BYTES) return { ok: false, problem: `${file.name} is larger than 10 MB.` };
  try {
    const image = await api<AdminProductImage>("/admin/product-images", {
      method: "POST",
      body: { image: await readAsBase64(file), purpose },
    });
    return { ok: true, image };
  } catch (caught) {
    if (!isApiError(caught)) throw caught;
    return {
      ok: false,
      problem: caught.fields?.image ? `${file.name}: ${caught.fields.image}` : caught.message,
    };
  }
}
