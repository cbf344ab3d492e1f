"""Builds dmlc: the C core as the plain shared library libdirectml_py (no libpython, only
the dmlc* API exported), then the Cython modules that call it.  The library and
directml_py.h are installed inside the package (dmlc.get_library_path(), dmlc.get_include()).

Environment: DMLC_CFLAGS adds compiler flags to the core (CI uses it for sanitizers and
-Werror); DMLC_NO_OPENMP=1 builds the core single-threaded (the name is from when its threads
came from OpenMP; they are now its own, src/threadpool.c, and need no OpenMP runtime).
"""
import concurrent.futures
import glob
import os
import shlex
import shutil
import sys

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext as _build_ext

HERE = os.path.dirname(os.path.abspath(__file__))


def header_version():
    """The version, as directml_py.h's DMLC_VERSION_MAJOR/MINOR/PATCH write it (its one home)."""
    import re
    with open(os.path.join(HERE, "include", "directml_py.h"), encoding="utf-8") as f:
        text = f.read()
    parts = [re.search(rf"#define DMLC_VERSION_{p} (\d+)", text).group(1) for p in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(parts)


CORE_SOURCES = sorted(glob.glob("src/*.c") + glob.glob("src/ops/*.c") + glob.glob("src/kernels/*.c"))
CORE_DEPENDS = sorted([f for ext in ("h", "def", "inc") for f in glob.glob(f"src/**/*.{ext}", recursive=True)]
                      + ["include/directml_py.h"])
if not CORE_SOURCES or not os.path.exists("include/directml_py.h"):
    # Without them the library links empty and the extensions fail at import with an
    # undefined dmlc* symbol: say so here instead.
    sys.exit("setup.py: the C core's sources (src/, include/directml_py.h) are missing; build from a "
             "checkout of dmlc or from its complete sdist (MANIFEST.in lists what the sdist carries)")

if sys.platform == "win32":
    LIB_FILE = "directml_py.dll"
elif sys.platform == "darwin":
    LIB_FILE = "libdirectml_py.dylib"
else:
    LIB_FILE = "libdirectml_py.so"


# Every core of the build machine compiles: the core's sources one per thread, the Cython
# modules through setuptools' own parallel build_ext (and cythonize's processes where fork
# makes them cheap).  `build_ext -j N` still chooses.
JOBS = os.cpu_count() or 1


class build_ext(_build_ext):
    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = JOBS

    def build_extensions(self):
        lib_dir = self.build_core()
        for ext in self.extensions:
            ext.library_dirs.append(lib_dir)
        if self.compiler.compiler_type != "msvc":
            # Python's LDSHARED may carry the build machine's own rpath (pyenv's
            # -Wl,-rpath,<prefix>/lib), which a wheel would take anywhere, searched before
            # $ORIGIN: the extensions find libdirectml_py beside them, and need nothing else.
            self.compiler.linker_so = [a for a in self.compiler.linker_so if not a.startswith("-Wl,-rpath")]
        super().build_extensions()

    def build_core(self):
        cc = self.compiler
        lib_dir = os.path.join(self.build_lib, "dmlc")
        os.makedirs(os.path.join(lib_dir, "include"), exist_ok=True)
        shutil.copy(os.path.join(HERE, "include", "directml_py.h"), os.path.join(lib_dir, "include"))
        macros = [("DMLC_BUILDING_LIBRARY", "1")]
        if os.environ.get("DMLC_NO_OPENMP"):
            macros.append(("DMLC_SINGLE_THREADED", "1"))
        if cc.compiler_type == "msvc":
            cflags, ldflags = ["/O2"], []
        else:
            threads = [] if sys.platform == "win32" else ["-pthread"]
            cflags = ["-std=gnu11", "-O3", "-fvisibility=hidden", "-fno-strict-aliasing", *threads]
            cflags += shlex.split(os.environ.get("DMLC_CFLAGS", ""))
            ldflags = threads + shlex.split(os.environ.get("DMLC_CFLAGS", ""))
            if sys.platform == "darwin":
                ldflags += ["-install_name", "@rpath/" + LIB_FILE]
            else:
                ldflags += ["-Wl,-soname," + LIB_FILE]
            # libm: LP pooling's pow and sqrt (the library carries it, so programs linking
            # libdirectml_py need no -lm of their own).
            ldflags += ["-lm"]
        def compile_one(source):
            return cc.compile([source], output_dir=self.build_temp, macros=macros, include_dirs=["include"],
                              extra_postargs=cflags, depends=CORE_DEPENDS)

        workers = self.parallel if isinstance(self.parallel, int) and self.parallel > 1 else 1
        with concurrent.futures.ThreadPoolExecutor(workers) as pool:
            objects = [obj for objs in pool.map(compile_one, CORE_SOURCES) for obj in objs]
        target = os.path.join(lib_dir, LIB_FILE)
        if cc.compiler_type == "msvc":
            cc.link_shared_object(objects, target, extra_postargs=ldflags)
        else:
            # Python's LDSHARED carries its own -L/-rpath; the core is a plain C library.
            saved = cc.linker_so
            cc.linker_so = [cc.compiler_so[0], "-shared"]
            try:
                cc.link_shared_object(objects, target, extra_postargs=ldflags)
            finally:
                cc.linker_so = saved
        return lib_dir

    def copy_extensions_to_source(self):
        # --inplace / editable: the library and the header travel with the extensions.
        super().copy_extensions_to_source()
        os.makedirs(os.path.join(HERE, "dmlc", "include"), exist_ok=True)
        shutil.copy(os.path.join(self.build_lib, "dmlc", LIB_FILE), os.path.join(HERE, "dmlc", LIB_FILE))
        shutil.copy(os.path.join(HERE, "include", "directml_py.h"), os.path.join(HERE, "dmlc", "include"))


if sys.platform == "darwin":
    rpath_args = {"extra_link_args": ["-Wl,-rpath,@loader_path"]}
elif sys.platform == "win32":
    rpath_args = {}
else:
    rpath_args = {"runtime_library_dirs": ["$ORIGIN"]}

extensions = [
    Extension(
        "dmlc." + os.path.splitext(os.path.basename(pyx))[0],
        [pyx],
        include_dirs=["include", "src", numpy.get_include()],  # src: _core reads dtypes.def
        libraries=["directml_py"],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        depends=["include/directml_py.h", "dmlc/_core.pxd", "src/dtypes.def", "src/schema.def",
                 "src/schema.h"],
        **rpath_args,
    )
    for pyx in sorted(glob.glob("dmlc/*.pyx"))
]

setup(
    version=header_version(),
    ext_modules=cythonize(extensions, compiler_directives={"language_level": 3},
                          nthreads=JOBS if sys.platform.startswith("linux") else 0),
    cmdclass={"build_ext": build_ext},
    package_data={"dmlc": [LIB_FILE, "*.pyx", "*.pxd", "*.pyi", "py.typed", "models/*.json", "models/*.md",
                           "pkgconfig/*.pc", "cmake/*.cmake"],
                  "dmlc.include": ["directml_py.h"]},
    # Cython's generated C is a build intermediate: the .pyx sources travel, not their output.
    exclude_package_data={"dmlc": ["*.c"]},
)
