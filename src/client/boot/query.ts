/** A step of the app's start (boot.ts): the data layer's library, evaluated in a task of its own. */
export { hydrate } from '@tanstack/react-query';
