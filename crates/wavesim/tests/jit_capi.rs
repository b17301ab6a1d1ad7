//! The engine choice through the C ABI (`wavesim_set_engine`, `wavesim_set_default_engine`):
//! valid numbers are taken, others are refused with WAVESIM_ERR_INVALID and change nothing.

use wavesim::capi::{
    wavesim_device_create, wavesim_device_destroy, wavesim_set_default_engine, wavesim_set_engine,
    WAVESIM_ERR_INVALID, WAVESIM_OK,
};
use wavesim::Engine;

#[test]
fn engines_are_chosen_by_number() {
    let dev = wavesim_device_create();
    assert!(!dev.is_null());
    // SAFETY: `dev` is a live handle from wavesim_device_create, destroyed once at the end.
    unsafe {
        assert_eq!(wavesim_set_engine(dev, 0), WAVESIM_OK);
        assert_eq!(wavesim_set_engine(dev, 1), WAVESIM_OK);
        assert_eq!(wavesim_set_engine(dev, 2), WAVESIM_OK);
        assert_eq!(wavesim_set_engine(dev, 3), WAVESIM_ERR_INVALID);
        assert_eq!(wavesim_set_engine(dev, -1), WAVESIM_ERR_INVALID);
        assert_eq!(
            wavesim_set_engine(std::ptr::null_mut(), 1),
            WAVESIM_ERR_INVALID
        );
        wavesim_device_destroy(dev);
    }
    // The process-wide default (run_asm, new devices).
    assert_eq!(wavesim_set_default_engine(9), WAVESIM_ERR_INVALID);
    assert_eq!(wavesim_set_default_engine(0), WAVESIM_OK);
    assert_eq!(Engine::default(), Engine::Interp);
    assert_eq!(wavesim::Device::new().cfg.engine, Engine::Interp);
    assert_eq!(wavesim_set_default_engine(1), WAVESIM_OK);
    assert_eq!(Engine::default(), Engine::Jit);
    assert_eq!(wavesim_set_default_engine(2), WAVESIM_OK);
    assert_eq!(Engine::default(), Engine::Auto);
}
