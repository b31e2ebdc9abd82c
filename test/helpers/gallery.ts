// The address every test uses when it needs a valid one: the sandbox verifies it as valid, as-is.
export const GALLERY = {
  name: "Gallery North",
  email: "ship@gallery.example",
  phone: "+12069536978",
  line_1: "1 Main Street",
  city: "Seattle",
  region: "WA",
  post_code: "98101",
  country: 1,
};
