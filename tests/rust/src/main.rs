//! DirectML's PADDING page, example 3 (REFLECTION), in one dimension, through
//! libdirectml_py's C API from Rust: the structs are directml.h's, declared #[repr(C)].
//!   cargo run                                          (build.rs finds the library)
//!   rustc src/main.rs -L native=$(dmlc config --libdir) -l dylib=directml_py \
//!         -C link-arg=-Wl,-rpath,$(dmlc config --libdir)
use std::ffi::CStr;
use std::os::raw::{c_char, c_void};
use std::ptr;

#[repr(C)]
struct DmlBufferTensorDesc {
    data_type: i32,
    flags: i32,
    dimension_count: u32,
    sizes: *const u32,
    strides: *const u32,
    total_tensor_size_in_bytes: u64,
    guaranteed_base_offset_alignment: u32,
}

#[repr(C)]
struct DmlTensorDesc {
    kind: i32,
    desc: *const c_void,
}

#[repr(C)]
struct DmlPaddingOperatorDesc {
    input_tensor: *const DmlTensorDesc,
    output_tensor: *const DmlTensorDesc,
    padding_mode: i32,
    padding_value: f32,
    dimension_count: u32,
    start_padding: *const u32,
    end_padding: *const u32,
}

#[repr(C)]
struct DmlOperatorDesc {
    kind: i32,
    desc: *const c_void,
}

#[repr(C)]
struct DmlcBufferBinding {
    buffer: *mut c_void,
    offset: u64,
    size_in_bytes: u64,
}

const DML_TENSOR_DATA_TYPE_FLOAT32: i32 = 1;
const DML_TENSOR_TYPE_BUFFER: i32 = 1;
const DML_OPERATOR_PADDING: i32 = 64;
const DML_PADDING_MODE_REFLECTION: i32 = 2;

extern "C" {
    fn dmlcExecuteOperator(
        desc: *const DmlOperatorDesc,
        input_count: u32,
        inputs: *const DmlcBufferBinding,
        output_count: u32,
        outputs: *const DmlcBufferBinding,
    ) -> i32;
    fn dmlcGetLastErrorMessage() -> *const c_char;
    fn dmlcGetVersion() -> u32;
}

fn buffer_desc(sizes: &[u32], bytes: u64) -> DmlBufferTensorDesc {
    DmlBufferTensorDesc {
        data_type: DML_TENSOR_DATA_TYPE_FLOAT32,
        flags: 0,
        dimension_count: sizes.len() as u32,
        sizes: sizes.as_ptr(),
        strides: ptr::null(),
        total_tensor_size_in_bytes: bytes,
        guaranteed_base_offset_alignment: 0,
    }
}

fn main() {
    let mut input = [1.0f32, 2.0, 3.0];
    let mut output = [0.0f32; 8];
    let (in_sizes, out_sizes) = ([3u32], [8u32]);
    let (start, end) = ([2u32], [3u32]);
    let in_buf = buffer_desc(&in_sizes, 12);
    let out_buf = buffer_desc(&out_sizes, 32);
    let in_desc = DmlTensorDesc { kind: DML_TENSOR_TYPE_BUFFER, desc: &in_buf as *const _ as *const c_void };
    let out_desc = DmlTensorDesc { kind: DML_TENSOR_TYPE_BUFFER, desc: &out_buf as *const _ as *const c_void };
    let pad = DmlPaddingOperatorDesc {
        input_tensor: &in_desc,
        output_tensor: &out_desc,
        padding_mode: DML_PADDING_MODE_REFLECTION,
        padding_value: 0.0,
        dimension_count: 1,
        start_padding: start.as_ptr(),
        end_padding: end.as_ptr(),
    };
    let op = DmlOperatorDesc { kind: DML_OPERATOR_PADDING, desc: &pad as *const _ as *const c_void };
    let bind_in = DmlcBufferBinding { buffer: input.as_mut_ptr() as *mut c_void, offset: 0, size_in_bytes: 12 };
    let bind_out = DmlcBufferBinding { buffer: output.as_mut_ptr() as *mut c_void, offset: 0, size_in_bytes: 32 };
    let hr = unsafe { dmlcExecuteOperator(&op, 1, &bind_in, 1, &bind_out) };
    if hr != 0 {
        let message = unsafe { CStr::from_ptr(dmlcGetLastErrorMessage()) };
        eprintln!("dmlcExecuteOperator failed: 0x{:08X} {}", hr as u32, message.to_string_lossy());
        std::process::exit(1);
    }
    let expected = [3.0f32, 2.0, 1.0, 2.0, 3.0, 2.0, 1.0, 2.0];
    if output != expected {
        eprintln!("got {output:?}, expected {expected:?}");
        std::process::exit(1);
    }
    println!("PADDING (REFLECTION) from Rust: {output:?} (dmlc 0x{:06X})", unsafe { dmlcGetVersion() });
}
