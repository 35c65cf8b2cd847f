//! Decoded values of the package's frozen classes (`Vector2`, `Color` ...) made without running
//! their `__init__`: allocated as `object.__new__` does and their `__slots__` filled as
//! `object.__setattr__` fills them. Where each slot lives in the instance is found once, by
//! setting the slots of a probe instance and finding the objects set; a decode then stores the
//! values there directly (a name lookup per slot was a good part of a Vector2's decode). A class
//! whose slots are not all found is filled by name.

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple, PyType};

/// How the slots of one frozen class are filled.
pub struct FrozenLayout {
    names: Vec<Py<PyString>>,
    /// The byte offset of each slot (in `names`' order) in an instance; None: filled by name.
    offsets: Option<Vec<usize>>,
}

impl FrozenLayout {
    /// The layout of `cls`, a plain class defined in Python with `__slots__` (each field once).
    pub fn of(cls: &Bound<'_, PyType>) -> PyResult<FrozenLayout> {
        let names = cls
            .getattr("__slots__")?
            .try_iter()?
            .map(|n| Ok(n?.cast_into::<PyString>()?.unbind()))
            .collect::<PyResult<Vec<_>>>()?;
        let mut layout = FrozenLayout {
            names,
            offsets: None,
        };
        layout.offsets = layout.find_offsets(cls)?;
        Ok(layout)
    }

    /// Where a probe instance holds each slot's object: None unless every slot is found once.
    fn find_offsets(&self, cls: &Bound<'_, PyType>) -> PyResult<Option<Vec<usize>>> {
        let py = cls.py();
        let size: usize = cls.getattr("__basicsize__")?.extract()?;
        let word = std::mem::size_of::<*mut ffi::PyObject>();
        let header = std::mem::size_of::<ffi::PyObject>();
        // Distinct new objects, one a slot.
        let probes: Vec<Bound<'_, PyAny>> = self
            .names
            .iter()
            .map(|_| PyList::empty(py).into_any())
            .collect();
        let obj = self.fill_by_name(cls, &probes)?;
        let mut offsets = Vec::with_capacity(probes.len());
        for probe in &probes {
            let found: Vec<usize> = (header..size)
                .step_by(word)
                .filter(|&offset| offset + word <= size)
                .filter(|&offset| {
                    // SAFETY: `obj` is a live instance of `cls` (held here, the lock held), whose
                    // memory is `__basicsize__` bytes from its address, every byte initialized
                    // (the allocator zeroes them); `offset + word <= size` and `offset` is a
                    // multiple of the word size, so the read is in bounds and aligned. The word
                    // is only compared, never used as a pointer.
                    let held = unsafe {
                        obj.as_ptr()
                            .cast::<u8>()
                            .add(offset)
                            .cast::<*mut ffi::PyObject>()
                            .read()
                    };
                    held == probe.as_ptr()
                })
                .collect();
            match found.as_slice() {
                [offset] => offsets.push(*offset),
                _ => return Ok(None),
            }
        }
        Ok(Some(offsets))
    }

    /// A new instance of `cls`, nothing set.
    fn alloc<'py>(cls: &Bound<'py, PyType>) -> PyResult<Bound<'py, PyAny>> {
        // SAFETY: `cls` is a live class and the lock is held (its `Bound`). The frozen classes
        // are plain classes defined in Python with `__slots__`, not abstract:
        // `object.__new__(cls)` only calls their `tp_alloc`, which Python sets to
        // `PyType_GenericAlloc` for such a class; it returns a new reference (its memory
        // zeroed), or NULL with a Python error set.
        unsafe {
            let raw = ffi::PyType_GenericAlloc(cls.as_ptr().cast(), 0);
            Bound::from_owned_ptr_or_err(cls.py(), raw)
        }
    }

    /// A new instance of `cls` with its slots set from `values` in order, by name.
    fn fill_by_name<'py>(
        &self,
        cls: &Bound<'py, PyType>,
        values: &[Bound<'py, PyAny>],
    ) -> PyResult<Bound<'py, PyAny>> {
        let obj = Self::alloc(cls)?;
        for (name, value) in self.names.iter().zip(values) {
            // SAFETY: the three pointers are live objects held by `obj`, `names` and `values`
            // for the call, with the interpreter's lock held; the generic setter stores into the
            // slot's member descriptor (what `object.__setattr__` does), bypassing the class's
            // `__setattr__` that refuses changes once made. -1 sets a Python error.
            let status = unsafe {
                ffi::PyObject_GenericSetAttr(obj.as_ptr(), name.as_ptr(), value.as_ptr())
            };
            if status != 0 {
                return Err(PyErr::fetch(cls.py()));
            }
        }
        Ok(obj)
    }

    /// A new instance of `cls` (the class of this layout) with its slots set from `values` in
    /// order, as its `__init__` sets them.
    pub fn make<'py>(
        &self,
        cls: &Bound<'py, PyType>,
        values: &[Bound<'py, PyAny>],
    ) -> PyResult<Bound<'py, PyAny>> {
        let Some(offsets) = &self.offsets else {
            return self.fill_by_name(cls, values);
        };
        let obj = Self::alloc(cls)?;
        for (offset, value) in offsets.iter().zip(values) {
            // SAFETY: `obj` is a new instance of this layout's class, the lock held; `offset` is
            // where such an instance holds a slot's object (found by `find_offsets` on a probe
            // instance: a word inside its `__basicsize__`, aligned), still NULL in a new
            // instance, so nothing is overwritten. The slot takes a new reference to `value`,
            // which the instance releases when it goes (as `object.__setattr__` stores it).
            unsafe {
                obj.as_ptr()
                    .cast::<u8>()
                    .add(*offset)
                    .cast::<*mut ffi::PyObject>()
                    .write(value.clone().into_ptr());
            }
        }
        Ok(obj)
    }

    /// The object in slot `index` (in `__slots__`' order) of `obj`, an instance of exactly this
    /// layout's class; None where the slots are filled by name or the slot is empty.
    pub fn slot<'py>(&self, obj: &Bound<'py, PyAny>, index: usize) -> Option<Bound<'py, PyAny>> {
        let offset = *self.offsets.as_ref()?.get(index)?;
        // SAFETY: `obj` is a live instance of this layout's class (the caller checks its exact
        // type), the lock held; `offset` is where such an instance holds the slot's object (a
        // word inside its `__basicsize__`, aligned), NULL while unset, else a reference the
        // instance owns, borrowed here for the time `obj` is.
        unsafe {
            let raw = obj
                .as_ptr()
                .cast::<u8>()
                .add(offset)
                .cast::<*mut ffi::PyObject>()
                .read();
            Bound::from_borrowed_ptr_or_opt(obj.py(), raw)
        }
    }

    /// As [`FrozenLayout::make`], from a tuple of the values.
    pub fn make_from_tuple<'py>(
        &self,
        cls: &Bound<'py, PyType>,
        values: &Bound<'py, PyTuple>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let values: Vec<Bound<'py, PyAny>> = values.iter().collect();
        self.make(cls, &values)
    }
}
