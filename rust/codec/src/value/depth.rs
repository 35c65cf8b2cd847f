//! Cloning and dropping values of any depth on any thread's stack: both recurse (the compiler's
//! drop would too, once per level), each level of nesting on a stack with room for it
//! (`crate::stack`). A container of plain values drops as the compiler would drop it.

use super::{Array, Dictionary, Object, Value};

fn is_container(v: &Value) -> bool {
    matches!(v, Value::Array(_) | Value::Dictionary(_) | Value::Object(_))
}

impl Drop for Array {
    fn drop(&mut self) {
        if self.items.iter().any(is_container) {
            let items = std::mem::take(&mut self.items);
            crate::stack::guard(move || drop(items));
        }
    }
}

impl Drop for Dictionary {
    fn drop(&mut self) {
        if self
            .entries
            .iter()
            .any(|(k, v)| is_container(k) || is_container(v))
        {
            let entries = std::mem::take(&mut self.entries);
            crate::stack::guard(move || drop(entries));
        }
    }
}

impl Drop for Object {
    fn drop(&mut self) {
        if self.properties.iter().any(|(_, v)| is_container(v)) {
            let properties = std::mem::take(&mut self.properties);
            crate::stack::guard(move || drop(properties));
        }
    }
}

impl Clone for Array {
    fn clone(&self) -> Self {
        crate::stack::guard(|| Array {
            element: self.element.clone(),
            items: self.items.clone(),
        })
    }
}

impl Clone for Dictionary {
    fn clone(&self) -> Self {
        // Not the index: the copy builds its own when a lookup needs it.
        crate::stack::guard(|| {
            Dictionary::from_parts(self.key.clone(), self.value.clone(), self.entries.clone())
        })
    }
}

impl Clone for Object {
    fn clone(&self) -> Self {
        crate::stack::guard(|| Object {
            class: self.class.clone(),
            properties: self.properties.clone(),
        })
    }
}
