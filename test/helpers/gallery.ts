// The valid inputs every test uses when it needs one: an address the sandbox verifies as valid, as-is, and the same
// address and a shipment as commander hands over their flags.
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

/** The same address as commander hands over its flags. */
export const GALLERY_FLAGS = {
  name: "Gallery North",
  email: "ship@gallery.example",
  phone: "+12069536978",
  line1: "1 Main Street",
  city: "Seattle",
  region: "WA",
  postCode: "98101",
  country: "1",
};

/** A valid shipment between two stored addresses (12 and 15), as commander hands over its flags. */
export const SHIPMENT_FLAGS = {
  title: "Blue Study",
  value: "1200",
  length: "30",
  height: "24",
  depth: "3",
  service: "1",
  fulfillmentAddressId: "12",
  destinationAddressId: "15",
};
