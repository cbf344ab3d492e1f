// Finds libdirectml_py in the Python environment dmlc is installed in, links it, and puts
// that directory in the program's rpath, so it runs without LD_LIBRARY_PATH.  `dmlc` must
// be on PATH (the environment activated), or set DMLC to another command.
use std::process::Command;

fn main() {
    let dmlc = std::env::var("DMLC").unwrap_or_else(|_| "dmlc".to_string());
    let out = Command::new(&dmlc)
        .args(["config", "--libdir"])
        .output()
        .unwrap_or_else(|e| panic!("running `{dmlc} config --libdir`: {e} (is dmlc installed? pip install . in its checkout)"));
    assert!(out.status.success(), "`{dmlc} config --libdir` failed");
    let libdir = String::from_utf8(out.stdout).expect("a UTF-8 path").trim().to_string();
    println!("cargo:rustc-link-search=native={libdir}");
    println!("cargo:rustc-link-lib=dylib=directml_py");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{libdir}");
    println!("cargo:rerun-if-env-changed=DMLC");
}
