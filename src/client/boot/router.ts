/** A step of the app's start (boot.ts): the router's library, evaluated in a task of its own. */
export { createBrowserRouter } from 'react-router';
