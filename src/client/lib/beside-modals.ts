/**
 * A class for what stays reachable beside an open modal (`useModalDialog`, decision 062): the
 * toasts, whose messages (a booking that failed, a link to pay) are announced and can be tapped
 * while a dialog is open. Its own module: the app's shell names it without loading the modal.
 */
export const BESIDE_MODALS = 'beside-modals';
