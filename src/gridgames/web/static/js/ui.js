// Shared bits of the pages: the toast message and element lookup.

export const $ = (selector, root = document) => root.querySelector(selector);

let toastTimer = 0;

export function toast(message, { error = false, ms = 3500 } = {}) {
  const box = $("#toast");
  box.textContent = message;
  box.classList.toggle("error", error);
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, ms);
}

export function showError(error) {
  toast(error.message || String(error), { error: true });
}

// Read a chosen file as text.
export function readFile(input) {
  const file = input.files?.[0];
  input.value = "";
  return file ? file.text() : Promise.resolve(null);
}
